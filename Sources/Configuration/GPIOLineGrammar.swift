import GPIO

/// How a GPIO line is written in patternlock.conf: `NAME` (the line's name, as
/// `gpioinfo` shows it), `CHIP-LABEL:OFFSET` (the chip's label, as `gpiodetect` shows
/// it), or `gpiochipN:OFFSET` (a chip number: still read, but a kernel update may
/// renumber the chips), then ` active-low` when the line's active level is low.
public enum GPIOLineGrammar {
  public static let activeLowWord = "active-low"
  /// The offsets a chip may have (the kernel's GPIO_MAX_LINES per request is 64, a
  /// chip's own lines are fewer than 512 on every board we know).
  public static let offsets = 0...511

  /// `LINE [active-low]`, nil for anything else.
  static func setting(_ text: String) -> GPIOLineSetting? {
    var words = ValueGrammar.words(text)
    let activeLow = words.last == activeLowWord
    if activeLow { words.removeLast() }
    guard words.count == 1, let address = address(words[0]) else { return nil }
    return GPIOLineSetting(address: address, activeLow: activeLow)
  }

  /// One address word, nil for anything else.
  static func address(_ word: String) -> GPIOLineAddress? {
    let parts = word.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    switch parts.count {
    case 1:
      return isName(word) && word != activeLowWord && word != "none" ? .named(word) : nil
    case 2:
      guard let offset = ValueGrammar.integer(parts[1]), offsets.contains(offset) else { return nil }
      if let path = chipPath(parts[0]) { return .chipPath(path, offset: UInt32(offset)) }
      return isName(parts[0]) ? .chipLabel(parts[0], offset: UInt32(offset)) : nil
    default:
      return nil
    }
  }

  /// `gpiochipN` or `/dev/gpiochipN` as the device path, nil for anything else.
  private static func chipPath(_ text: String) -> String? {
    let path = text.hasPrefix("/dev/") ? text : "/dev/" + text
    guard path.hasPrefix("/dev/gpiochip") else { return nil }
    let number = path.dropFirst("/dev/gpiochip".count)
    guard !number.isEmpty, number.count <= 3, number.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return path
  }

  /// A line name or chip label: printable ASCII without spaces, colons or slashes, at
  /// most the kernel's 31 bytes, and not `gpiochip...` (a chip number misspelt must not
  /// pass for a name).
  private static func isName(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 31 && !text.hasPrefix("gpiochip")
      && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "/") }
  }
}
