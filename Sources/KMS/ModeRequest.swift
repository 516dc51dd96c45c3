/// What `--mode WxH[@Hz]` asks for.
///
/// Parsed here, matched against the connector's modes in `DisplayMode.choose`; a
/// refresh rate that is left out matches the first mode of that size (the kernel
/// lists the preferred and higher rates first).
public struct ModeRequest: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// The vertical refresh in Hz, or nil for any.
  public let refresh: Int?

  public init(width: Int, height: Int, refresh: Int? = nil) {
    self.width = width
    self.height = height
    self.refresh = refresh
  }

  /// Parses `1920x1080`, `800x480@60`; nil for anything else (each number 1 to 5
  /// digits, sizes and rates above zero).
  public init?(parsing text: String) {
    var numbers: [Int] = []
    var separators: [UInt8] = []
    var current = 0
    var digits = 0
    for c in text.utf8 {
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        guard digits < 5 else { return nil }
        current = current * 10 + Int(c - UInt8(ascii: "0"))
        digits += 1
      } else if c == UInt8(ascii: "x") || c == UInt8(ascii: "@") {
        guard digits > 0 else { return nil }
        numbers.append(current)
        separators.append(c)
        current = 0
        digits = 0
      } else {
        return nil
      }
    }
    guard digits > 0 else { return nil }
    numbers.append(current)
    switch (numbers.count, separators.count) {
    case (2, 1) where separators[0] == UInt8(ascii: "x"):
      refresh = nil
    case (3, 2) where separators[0] == UInt8(ascii: "x") && separators[1] == UInt8(ascii: "@"):
      refresh = numbers[2]
    default:
      return nil
    }
    guard numbers[0] > 0, numbers[1] > 0, refresh ?? 1 > 0 else { return nil }
    width = numbers[0]
    height = numbers[1]
  }

  /// The request as the user writes it.
  public var text: String {
    if let refresh { return "\(width)x\(height)@\(refresh)" }
    return "\(width)x\(height)"
  }
}
