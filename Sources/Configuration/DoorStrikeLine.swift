import GPIO

/// `gpio-unlock = LINE [MS] [active-low]`: the GPIO output line an unlock pulses (a
/// door strike's relay) and for how long. LINE is a line name or CHIP-LABEL:OFFSET
/// (`GPIOLineGrammar`); the older `gpiochipN:OFFSET:MS` is still read.
public struct DoorStrikeLine: Equatable, Sendable {
  /// The line, and whether it is active low.
  public var line: GPIOLineSetting
  /// How long the line is held active.
  public var milliseconds: Int

  /// The pulse when `MS` is left out: long enough for a strike to release.
  public static let defaultMilliseconds = 500
  /// From a tap to a long hold; past a minute a strike would overheat.
  public static let durations = 10...60_000

  public init(line: GPIOLineSetting, milliseconds: Int = DoorStrikeLine.defaultMilliseconds) {
    self.line = line
    self.milliseconds = milliseconds
  }

  /// `DOOR_STRIKE`, `DOOR_STRIKE 250 active-low`, `pinctrl-rp1:17 300`,
  /// `gpiochip0:4:250`; nil for anything else.
  static func parse(_ text: String) -> DoorStrikeLine? {
    var words = ValueGrammar.words(text)
    let activeLow = words.last == GPIOLineGrammar.activeLowWord
    if activeLow { words.removeLast() }
    guard words.count == 1 || words.count == 2 else { return nil }
    var milliseconds = defaultMilliseconds
    var addressText = words[0]
    if words.count == 2 {
      guard let ms = ValueGrammar.integer(words[1]), durations.contains(ms) else { return nil }
      milliseconds = ms
    } else if let (chip, offset, ms) = legacyForm(words[0]) {
      // gpiochipN:OFFSET:MS, the form before line names: MS rides on the address.
      guard durations.contains(ms) else { return nil }
      addressText = chip + ":" + offset
      milliseconds = ms
    }
    guard let address = GPIOLineGrammar.address(addressText) else { return nil }
    return DoorStrikeLine(line: GPIOLineSetting(address: address, activeLow: activeLow), milliseconds: milliseconds)
  }

  private static func legacyForm(_ word: String) -> (String, String, Int)? {
    let parts = word.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let ms = ValueGrammar.integer(parts[2]) else { return nil }
    return (parts[0], parts[1], ms)
  }
}
