/// Which boot of the machine a monotonic time belongs to (Linux's random per-boot
/// `boot_id`). CLOCK_MONOTONIC is shared by every process of one boot, so a lockout's
/// start stored with the boot it was measured in can be believed by any process of the
/// same boot, and by none after a reboot (the clock starts again from zero then).
public struct BootIdentity: Sendable, Hashable {
  /// The first 8 bytes, big-endian.
  public let high: UInt64
  /// The last 8 bytes, big-endian.
  public let low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// 32 lower-case hex digits, as stored in the attempts file.
  public var hex: String { HexText.encode(high) + HexText.encode(low) }

  /// Parses exactly 32 hex digits; nil otherwise.
  public init?(hex: String) {
    let utf8 = Array(hex.utf8)
    guard utf8.count == 32, let h = HexText.decode(utf8[0..<16]), let l = HexText.decode(utf8[16..<32]) else { return nil }
    self.init(high: h, low: l)
  }
}
