/// A keyed 128-bit hash of a wrong pattern, so that "the same wrong pattern again" can
/// be recognised without keeping any pattern in the clear.
///
/// The key is random per installation (Vault keeps it beside the pattern hash), so the
/// fingerprints in the attempts file cannot be looked up in a table of all 389,112
/// patterns of a 3x3 grid by someone who has only that file.
public struct PatternFingerprint: Sendable, Hashable {
  /// The first 8 bytes, big-endian.
  public let high: UInt64
  /// The last 8 bytes, big-endian.
  public let low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The 16 bytes in order; nil unless there are exactly 16.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    var h: UInt64 = 0
    var l: UInt64 = 0
    for i in 0..<8 { h = h << 8 | UInt64(bytes[i]) }
    for i in 8..<16 { l = l << 8 | UInt64(bytes[i]) }
    self.init(high: h, low: l)
  }

  /// 32 lower-case hex digits, as stored in the attempts file.
  public var hex: String {
    HexText.encode(high) + HexText.encode(low)
  }

  /// Parses exactly 32 hex digits (either case); nil otherwise.
  public init?(hex: String) {
    let utf8 = Array(hex.utf8)
    guard utf8.count == 32, let h = HexText.decode(utf8[0..<16]), let l = HexText.decode(utf8[16..<32]) else { return nil }
    self.init(high: h, low: l)
  }
}
