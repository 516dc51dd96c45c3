import CShim

extension CurrentProcess {
  /// `count` bytes (at most 256) from the kernel's random source (`pl_random_bytes`,
  /// getrandom(2)).
  ///
  /// - Throws: getrandom(2)'s `Errno`.
  public static func randomBytes(_ count: Int) throws(Errno) -> [UInt8] {
    precondition(count >= 0 && count <= 256, "getrandom gives at most 256 bytes at once")
    var bytes = [UInt8](repeating: 0, count: count)
    _ = try retryingInterrupts { bytes.withUnsafeMutableBytes { pl_random_bytes($0.baseAddress, $0.count) } }
    return bytes
  }
}
