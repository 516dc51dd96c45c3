extension FileDescriptor {
  /// Reads from the current offset to the end of the file, but never more than
  /// `limit` bytes into memory: the one read-everything loop, used for state files,
  /// configuration files and recordings (through `RegularFile.read`).
  ///
  /// One byte past the limit is asked for, so a file larger than `limit` is noticed
  /// (`isComplete` false) even when its size was checked before and it grew since.
  ///
  /// - Parameter limit: the most bytes returned.
  /// - Returns: the bytes (at most `limit`), and whether they are the whole rest of
  ///   the file.
  /// - Throws: read(2)'s `Errno`.
  public func readToEnd(limit: Int) throws(Errno) -> (bytes: [UInt8], isComplete: Bool) {
    precondition(limit >= 0, "negative limit")
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var filled = 0
    while filled < bytes.count {
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
}
