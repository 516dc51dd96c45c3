import CShim

/// Opening directories and files so that the descriptor, not the path, is what gets
/// checked and read: a file judged by `status()` on the descriptor cannot be swapped
/// for another before it is read, as a `stat` of a path followed by an `open` can.
/// Configuration's system layers are walked this way, from `/` down.
extension FileDescriptor {
  /// Opens the directory `name` in this directory (`pl_openat_directory`).
  ///
  /// - Parameters:
  ///   - name: a name in this directory.
  ///   - followingSymlink: whether a symbolic link there is followed; when not, one
  ///     fails with `.notADirectory` (as does a file).
  /// - Throws: openat(2)'s `Errno`.
  public func openSubdirectory(_ name: String, followingSymlink: Bool) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(
      owning: try retryingInterrupts { name.withCString { pl_openat_directory(directory, $0, followingSymlink ? 1 : 0) } })
  }

  /// Opens `name` in this directory for reading through a final symbolic link
  /// (`pl_openat_read_following`: O_NONBLOCK, so a FIFO never blocks the reader).
  ///
  /// - Throws: openat(2)'s `Errno`.
  public func openEntryFollowingSymlink(_ name: String) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(owning: try retryingInterrupts { name.withCString { pl_openat_read_following(directory, $0) } })
  }

  /// Opens a directory by path (`pl_openat_directory` from the working directory).
  ///
  /// - Parameters:
  ///   - path: the directory.
  ///   - followingSymlink: whether a final symbolic link is followed.
  /// - Throws: open(2)'s `Errno`.
  public static func openDirectory(_ path: String, followingSymlink: Bool) throws(Errno) -> FileDescriptor {
    FileDescriptor(
      owning: try retryingInterrupts { path.withCString { pl_openat_directory(Int32(PL_AT_FDCWD), $0, followingSymlink ? 1 : 0) } })
  }

  /// Opens a file by path for reading, following symbolic links, without blocking on
  /// a FIFO (`pl_openat_read_following` from the working directory).
  ///
  /// - Throws: open(2)'s `Errno`, `.noEntry` when there is nothing at `path`.
  public static func openForReading(_ path: String) throws(Errno) -> FileDescriptor {
    FileDescriptor(owning: try retryingInterrupts { path.withCString { pl_openat_read_following(Int32(PL_AT_FDCWD), $0) } })
  }

  /// What `name` in this directory is, without following a final symbolic link
  /// (`pl_fstatat`).
  ///
  /// - Throws: fstatat(2)'s `Errno`.
  public func statusOfEntry(_ name: String) throws(Errno) -> FileStatus {
    var status = pl_file_status()
    let directory = rawValue
    try retryingInterrupts { name.withCString { pl_fstatat(directory, $0, &status) } }
    return FileStatus(status)
  }

  /// The names in this open directory that `include` accepts, as `Directory.names`
  /// lists them (no `.` or `..`, sorted bytewise), read from the descriptor itself
  /// (`pl_opendir_descriptor`), so the directory listed is the one checked.
  ///
  /// - Throws: which call failed, with its `Errno`.
  public func entryNames(where include: (String) -> Bool = { _ in true }) throws(Directory.ListingFailure) -> [String] {
    guard let handle = pl_opendir_descriptor(rawValue) else { throw .cannotOpen(.current) }
    return try Directory.names(listing: handle, where: include)
  }
}
