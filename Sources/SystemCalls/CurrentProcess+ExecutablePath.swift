import CShim

extension CurrentProcess {
  /// The absolute path of the program this process runs, as the kernel knows it
  /// (`/proc/self/exe`): not argv[0], which whoever starts the process chooses.
  ///
  /// - Throws: readlink(2)'s `Errno`; `ENAMETOOLONG` for a path over 4095 bytes.
  public static func executablePath() throws(Errno) -> String {
    var bytes = [CChar](repeating: 0, count: 4096)
    let length = try retryingInterrupts { bytes.withUnsafeMutableBufferPointer { pl_readlink("/proc/self/exe", $0.baseAddress, UInt($0.count)) } }
    guard length < bytes.count else { throw .nameTooLong }
    return String(decoding: bytes[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
