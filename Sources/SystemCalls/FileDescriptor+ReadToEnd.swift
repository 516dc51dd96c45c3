extension FileDescriptor {
  /// Reads from the current offset to the end of the file, but never more than
  /// `limit` bytes into memory: the one read-everything loop, used for state files,
  /// configuration files and recordings (through `RegularFile.read`).
  ///
  /// One byte past the limit is asked for, so a file larger than `limit` is noticed
  /// (`isComplete` false) even when its size was checked before and it grew since.
  ///
  /// The buffer starts at `expectedBytes` (or a page) and doubles as needed, so what
  /// is kept is at most about twice what was read, never `limit`: a caller holding many
  /// small files (a `conf.d` of hundreds) holds their sizes, not hundreds of limits.
  ///
  /// - Parameters:
  ///   - limit: the most bytes returned.
  ///   - expectedBytes: the size `fstat` gave, when known, so one read usually does.
  /// - Returns: the bytes (at most `limit`), and whether they are the whole rest of
  ///   the file.
  /// - Throws: read(2)'s `Errno`.
  public func readToEnd(limit: Int, expectedBytes: Int? = nil) throws(Errno) -> (bytes: [UInt8], isComplete: Bool) {
    precondition(limit >= 0, "negative limit")
    let wanted = limit + 1
    var bytes = [UInt8](repeating: 0, count: min(wanted, max(expectedBytes ?? FileDescriptor.firstReadBytes, 0) + 1))
    var filled = 0
    while true {
      if filled == bytes.count {
        guard bytes.count < wanted else { break }
        bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, wanted - bytes.count)))
      }
      var failure: Errno?
      let count = bytes.withUnsafeMutableBytes { raw -> Int in
        do throws(Errno) {
          return try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
        } catch {
          failure = error
          return 0
        }
      }
      if let failure { throw failure }
      if count == 0 { break }
      filled += count
    }
    let isComplete = filled <= limit
    bytes.removeLast(bytes.count - min(filled, limit))
    return (bytes, isComplete)
  }

  /// The buffer's first size when the caller does not know the file's.
  static let firstReadBytes = 4096
}
