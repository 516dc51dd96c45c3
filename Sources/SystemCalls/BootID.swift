import CShim

/// This boot of the machine (Linux's boot_id), as 128 bits read big-endian: every
/// process of one boot reads the same, and no other boot has it.
public struct BootID: Hashable, Sendable {
  /// The first 8 bytes.
  public var high: UInt64
  /// The last 8 bytes.
  public var low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// This boot's (`pl_boot_id`, /proc/sys/kernel/random/boot_id).
  ///
  /// - Throws: reading the file's `Errno`, `.invalid` when it holds no boot id.
  public static func current() throws(Errno) -> BootID {
    var bytes: (UInt64, UInt64) = (0, 0)
    try withUnsafeMutableBytes(of: &bytes) { raw throws(Errno) in
      let start = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      try retryingInterrupts { pl_boot_id(start) }
    }
    return BootID(high: UInt64(bigEndian: bytes.0), low: UInt64(bigEndian: bytes.1))
  }
}
