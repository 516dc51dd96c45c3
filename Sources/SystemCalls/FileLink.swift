import CShim

/// Symbolic links read as they are (readlink(2)), never followed further.
public enum FileLink {
  /// What the link at `path` points to, as written in it (relative or absolute).
  ///
  /// - Throws: readlink(2)'s `Errno` (`EINVAL` when `path` is not a link);
  ///   `ENAMETOOLONG` for a target over 4095 bytes.
  public static func target(of path: String) throws(Errno) -> String {
    var bytes = [CChar](repeating: 0, count: 4096)
    let length = try retryingInterrupts { bytes.withUnsafeMutableBufferPointer { pl_readlink(path, $0.baseAddress, UInt($0.count)) } }
    guard length < bytes.count else { throw .nameTooLong }
    return String(decoding: bytes[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
