import CShim

/// Bits from the kernel's random source (getrandom(2)), for what must not be
/// predictable by someone watching: where a moving grid stands next.
public enum RandomBits {
  /// 64 random bits.
  ///
  /// - Throws: getrandom's `Errno` (`EINTR` is retried).
  public static func next() throws(Errno) -> UInt64 {
    var bits: UInt64 = 0
    try retryingInterrupts { pl_random_bits(&bits) }
    return bits
  }
}
