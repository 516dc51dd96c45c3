/// A payload as it may go into the journal: whoever may publish chooses its bytes, so
/// none of them may start a line of its own, forge an entry or upset a terminal.
public enum EscapedPayload {
  /// How many bytes of a payload are shown; more are marked `...`.
  public static let shownBytes = 64

  /// Printable ASCII as it is; a backslash, a quote and every control or non-ASCII
  /// byte as `\xNN`; at most `shownBytes` bytes, then `...` when there were more (or
  /// when `truncated` says the payload went on past these bytes).
  public static func text(_ payload: [UInt8], truncated: Bool = false) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(payload.count, shownBytes) * 4 + 3)
    for byte in payload.prefix(shownBytes) {
      if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "'") {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
      }
    }
    if truncated || payload.count > shownBytes { bytes.append(contentsOf: Array("...".utf8)) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
