/// `gpio-unlock = CHIP:LINE[:MS]`: the GPIO output line an unlock pulses (a door
/// strike's relay) and for how long.
public struct DoorStrikeLine: Equatable, Sendable {
  /// The GPIO character device, `/dev/gpiochipN`.
  public var chipPath: String
  /// The line's offset on the chip.
  public var line: Int
  /// How long the line is held high.
  public var milliseconds: Int

  /// The pulse when `MS` is left out: long enough for a strike to release.
  public static let defaultMilliseconds = 500
  /// The lines a chip may have (the kernel's GPIO_MAX_LINES is 512 per request chip).
  public static let lines = 0...511
  /// From a tap to a long hold; past a minute a strike would overheat.
  public static let durations = 10...60_000

  public init(chipPath: String, line: Int, milliseconds: Int = DoorStrikeLine.defaultMilliseconds) {
    self.chipPath = chipPath
    self.line = line
    self.milliseconds = milliseconds
  }

  /// `gpiochip0:4`, `gpiochip0:4:250` or `/dev/gpiochip0:4:250`; nil for anything else.
  static func parse(_ text: String) -> DoorStrikeLine? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2 || parts.count == 3 else { return nil }
    let chip = parts[0]
    let path: String
    if chip.hasPrefix("/dev/gpiochip") {
      path = chip
    } else if chip.hasPrefix("gpiochip") {
      path = "/dev/" + chip
    } else {
      return nil
    }
    let number = path.dropFirst("/dev/gpiochip".count)
    guard !number.isEmpty, number.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), number.count <= 3
    else { return nil }
    guard let line = ValueGrammar.integer(parts[1]), lines.contains(line) else { return nil }
    var pulse = DoorStrikeLine(chipPath: path, line: line)
    if parts.count == 3 {
      guard let ms = ValueGrammar.integer(parts[2]), durations.contains(ms) else { return nil }
      pulse.milliseconds = ms
    }
    return pulse
  }
}
