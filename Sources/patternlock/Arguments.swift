import PatternCore

/// Walks the command line one option at a time.
///
/// Options are `--name value` or `--name=value`; every problem ends the process with a
/// one-line message naming the option and what it accepts.
struct Arguments {
  private var items: [String]
  private var index = 0

  init(_ items: [String]) { self.items = items }

  /// Whether any argument is left.
  var isEmpty: Bool { index >= items.count }

  /// The next argument, consumed.
  mutating func next() -> String? {
    guard index < items.count else { return nil }
    defer { index += 1 }
    return items[index]
  }

  /// The value that belongs to `option` (`--x v` or `--x=v` already split by the caller).
  mutating func value(for option: String, inline: String?) -> String {
    if let inline { return inline }
    guard let v = next() else { Console.fail("option \(option) needs a value (see 'patternlock --help')") }
    return v
  }

  /// Removes every `--option VALUE` and `--option=VALUE` from the arguments not yet
  /// read and returns the last value, or nil when the option is absent.
  mutating func extract(option: String) -> String? {
    var kept = Array(items[..<index])
    var found: String?
    var i = index
    while i < items.count {
      let (name, inline) = Arguments.split(items[i])
      guard name == option else {
        kept.append(items[i])
        i += 1
        continue
      }
      if let inline {
        found = inline
        i += 1
      } else {
        guard i + 1 < items.count else { Console.fail("option \(option) needs a value (see 'patternlock --help')") }
        found = items[i + 1]
        i += 2
      }
    }
    items = kept
    return found
  }

  /// Splits `--name=value` into its parts.
  static func split(_ argument: String) -> (name: String, inline: String?) {
    guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
  }
}

/// Parsers for option values; each failure names the option and the accepted form.
enum OptionValue {
  /// A whole number, or nil when the text is not one.
  static func integer(_ text: String) -> Int? { DecimalInteger.parse(text) }

  static func integer(_ text: String, option: String) -> Int {
    guard let v = integer(text) else { Console.fail("\(option) takes a whole number, not '\(text)'") }
    return v
  }

  /// `WxH`, such as `800x480`.
  static func size(_ text: String, option: String) -> (width: Int, height: Int) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = integer(String(parts[0])), let h = integer(String(parts[1])), w > 0, h > 0 else {
      Console.fail("\(option) takes WIDTHxHEIGHT in pixels, such as 800x480, not '\(text)'")
    }
    return (w, h)
  }

  static func rotation(_ text: String, option: String) -> Rotation {
    guard let degrees = integer(text), let r = Rotation(degrees: degrees) else {
      Console.fail("\(option) takes 0, 90, 180 or 270, not '\(text)'")
    }
    return r
  }
}
