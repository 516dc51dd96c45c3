import PatternCore

/// The value syntaxes of patternlock.conf, shared by every key and by the command
/// line. Written out because Embedded Swift has no `Int(String)` for every width and
/// no `Double(String)`; each returns nil (or throws the caller's error) on anything
/// but the exact form, never a partial value.
enum SettingValue {
  /// A whole number, optionally negative, at most 9 digits.
  static func integer(_ text: String) -> Int? { DecimalInteger.parse(text) }

  /// A whole number within `range`, or `error`.
  static func integer(_ text: String, in range: ClosedRange<Int>, else error: ConfigurationError) throws(ConfigurationError) -> Int {
    guard let value = integer(text), range.contains(value) else { throw error }
    return value
  }

  /// `WIDTHxHEIGHT` within LayoutOptions' side limits.
  static func size(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = integer(String(parts[0])), let h = integer(String(parts[1])) else { return nil }
    let sides = LayoutOptions.minimumSide...LayoutOptions.maximumSide
    guard sides.contains(w), sides.contains(h) else { return nil }
    return (w, h)
  }

  /// yes/no, true/false, on/off, 1/0.
  static func boolean(_ text: String) -> Bool? {
    switch text {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: return nil
    }
  }

  /// An absolute path, or nil for the word meaning "choose automatically".
  static func path(_ text: String, automatic: String, else error: ConfigurationError) throws(ConfigurationError) -> String? {
    if text == automatic { return nil }
    guard text.hasPrefix("/") else { throw error }
    return text
  }

  /// `WxH` or `WxH@HZ`, each number 1 to 5 digits and above zero (as KMS's ModeRequest).
  static func isMode(_ text: String) -> Bool {
    let sizeAndRate = text.split(separator: "@", omittingEmptySubsequences: false)
    guard sizeAndRate.count <= 2 else { return false }
    let size = sizeAndRate[0].split(separator: "x", omittingEmptySubsequences: false)
    var numbers = size.map { String($0) }
    if sizeAndRate.count == 2 { numbers.append(String(sizeAndRate[1])) }
    guard size.count == 2 else { return false }
    return numbers.allSatisfy { n in n.utf8.count <= 5 && !n.hasPrefix("-") && (integer(n) ?? 0) > 0 }
  }

  /// Six decimal numbers separated by spaces or commas (as libinput's udev property).
  static func isCalibration(_ text: String) -> Bool {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    guard fields.count == 6 else { return false }
    return fields.allSatisfy { field in
      var digits = 0
      var dots = 0
      for (i, c) in field.utf8.enumerated() {
        if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { digits += 1 }
        else if c == UInt8(ascii: ".") { dots += 1 }
        else if i == 0 && (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) { continue }
        else { return false }
      }
      return digits > 0 && digits <= 9 && dots <= 1
    }
  }

  /// Words separated by spaces or tabs (no quoting: use a script for more).
  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0) }
  }

  /// Waits such as `0 0 60 5m 1h 2d`: seconds, or with an s, m, h or d suffix.
  static func durations(_ text: String) -> [Int64]? {
    var result: [Int64] = []
    for word in words(text) {
      var digits = word
      var unit: Int64 = 1
      switch word.last {
      case "s": unit = 1
      case "m": unit = 60
      case "h": unit = 3600
      case "d": unit = 86_400
      default: break
      }
      if let last = word.last, last == "s" || last == "m" || last == "h" || last == "d" { digits = String(word.dropLast()) }
      guard !digits.hasPrefix("-"), let value = integer(digits) else { return nil }
      result.append(Int64(value) * unit)
    }
    return result.isEmpty ? nil : result
  }
}
