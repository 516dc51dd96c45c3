/// Reads whole numbers written in decimal, for command-line options and
/// configuration values.
///
/// Written out because Embedded Swift has no `Int(String)` for every width; it
/// accepts exactly an optional `-` and 1 to 9 digits (so the value always fits and
/// no silent truncation happens), and returns nil for anything else.
public enum DecimalInteger {
  /// The number, or nil unless the text is exactly one.
  public static func parse(_ text: String) -> Int? {
    var value = 0
    var digits = 0
    var negative = false
    for (i, c) in text.utf8.enumerated() {
      if i == 0 && c == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"), digits < 9 else { return nil }
      value = value * 10 + Int(c - UInt8(ascii: "0"))
      digits += 1
    }
    guard digits > 0 else { return nil }
    return negative ? -value : value
  }
}
