import CShim

/// An open file descriptor that this value owns: closed in `deinit`, exactly once.
///
/// `~Copyable`, so no copy can close it early or twice. The number is lent to C calls
/// that need it (`poll`, ioctls, libdrm) through `rawValue`, which must never be
/// closed or kept beyond this value's life. Reads and writes retry `EINTR` through
/// `retryingInterrupts`; `close` is never retried: on Linux the descriptor is released
/// even when close(2) reports EINTR, and a retry could close a descriptor another
/// thread has just been given (see the close(2) manual page, "Dealing with error
/// returns from close()").
public struct FileDescriptor: ~Copyable, Sendable {
  /// The descriptor number, valid while this value lives.
  public let rawValue: Int32

  /// Takes ownership of a descriptor a C call returned.
  ///
  /// - Parameter rawValue: an open descriptor, which nothing else will close.
  public init(owning rawValue: Int32) {
    precondition(rawValue >= 0, "not a file descriptor")
    self.rawValue = rawValue
  }

  deinit { _ = pl_close(rawValue) }

  /// Closes the descriptor now rather than wherever this value's life ends
  /// (`pl_close`, once; its result says nothing the caller could act on).
  public consuming func close() {}

  /// Standard input. A global, which Swift never destroys, so it is never closed.
  public static let standardInput = FileDescriptor(owning: 0)
  /// Standard output, never closed.
  public static let standardOutput = FileDescriptor(owning: 1)
  /// Standard error, never closed.
  public static let standardError = FileDescriptor(owning: 2)

  /// How a file is opened.
  public enum Access: Sendable {
    case readOnly
    case writeOnly
    case readWrite

    var flags: Int32 {
      switch self {
      case .readOnly: return Int32(PL_O_RDONLY)
      case .writeOnly: return Int32(PL_O_WRONLY)
      case .readWrite: return Int32(PL_O_RDWR)
      }
    }
  }

  /// Opens a file, close-on-exec (`pl_open`, open(2)), retrying `EINTR`.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - access: read, write or both.
  /// - Throws: open(2)'s `Errno`.
  public static func open(_ path: String, _ access: Access) throws(Errno) -> FileDescriptor {
    let fd = try retryingInterrupts { path.withCString { pl_open($0, access.flags, 0) } }
    return FileDescriptor(owning: fd)
  }

  /// Reads what is there, up to `buffer.count` bytes (`pl_read`, read(2)), retrying
  /// `EINTR`.
  ///
  /// - Parameter buffer: where the bytes go.
  /// - Returns: how many bytes were read; 0 at the end of the file.
  /// - Throws: read(2)'s `Errno`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    let fd = rawValue
    return try retryingInterrupts { pl_read(fd, buffer.baseAddress, buffer.count) }
  }

  /// The byte at `offset` (`pl_pread`, pread(2)), or nil past the end.
  ///
  /// - Throws: pread(2)'s `Errno`.
  public func byte(at offset: Int64) throws(Errno) -> UInt8? {
    let fd = rawValue
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { raw throws(Errno) in
      try retryingInterrupts { pl_pread(fd, raw.baseAddress, 1, offset) }
    }
    return count == 1 ? byte : nil
  }

  /// Writes all of `bytes` (`pl_write`, write(2)), retrying `EINTR` and continuing
  /// after short writes.
  ///
  /// - Parameter bytes: what to write.
  /// - Throws: write(2)'s `Errno`; some bytes may have been written.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    let fd = rawValue
    var done = 0
    while done < bytes.count {
      done += try retryingInterrupts { pl_write(fd, bytes.baseAddress! + done, bytes.count - done) }
    }
  }

  /// Writes all of `bytes`; see `writeAll(_:)` for a buffer.
  ///
  /// - Parameter bytes: what to write, such as `array[..<half]`.
  /// - Throws: write(2)'s `Errno`; some bytes may have been written.
  public func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
    var failure: Errno?
    bytes.withUnsafeBytes { raw in
      do throws(Errno) {
        try writeAll(raw)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// What the open file is (`pl_fstat`, fstat(2)).
  ///
  /// - Throws: fstat(2)'s `Errno`.
  public func status() throws(Errno) -> FileStatus {
    var status = pl_file_status()
    let fd = rawValue
    try retryingInterrupts { pl_fstat(fd, &status) }
    return FileStatus(status)
  }

  /// Sets the permission bits (`pl_fchmod`, fchmod(2)).
  ///
  /// - Parameter permissions: such as `0o600`.
  /// - Throws: fchmod(2)'s `Errno`.
  public func setPermissions(_ permissions: UInt32) throws(Errno) {
    let fd = rawValue
    try retryingInterrupts { pl_fchmod(fd, permissions) }
  }

  /// Flushes the file's data and metadata to the disk (`pl_fsync`, fsync(2)); for a
  /// directory, the names in it (a rename).
  ///
  /// - Throws: fsync(2)'s `Errno`.
  public func synchronize() throws(Errno) {
    let fd = rawValue
    try retryingInterrupts { pl_fsync(fd) }
  }
}
