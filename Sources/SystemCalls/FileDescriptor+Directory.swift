import CShim

/// A directory held open, and calls on names inside it (`openat`, `renameat`,
/// `unlinkat`). Every name is relative to the descriptor, and none follows a final
/// symbolic link, so neither a symlink planted for a file nor a renamed or swapped
/// parent can redirect a read or a write. The Vault keeps its state this way.
extension FileDescriptor {
  /// Opens a directory (`pl_open_directory`: O_DIRECTORY, O_NOFOLLOW), retrying `EINTR`.
  ///
  /// - Parameter path: the directory; a symbolic link is refused (`.symbolicLinkLoop`).
  /// - Throws: open(2)'s `Errno`.
  public static func openDirectory(_ path: String) throws(Errno) -> FileDescriptor {
    FileDescriptor(owning: try retryingInterrupts { path.withCString { pl_open_directory($0) } })
  }

  /// Opens `name` in this directory for reading (`pl_openat_read`: O_NOFOLLOW and
  /// O_NONBLOCK, so a FIFO never blocks the reader).
  ///
  /// - Parameter name: a name in the directory.
  /// - Throws: openat(2)'s `Errno`: `.noEntry` when there is none, `.symbolicLinkLoop`
  ///   when it is a symbolic link.
  public func openEntry(_ name: String) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(owning: try retryingInterrupts { name.withCString { pl_openat_read(directory, $0) } })
  }

  /// Creates `name` in this directory for writing, failing if anything is there
  /// (`pl_openat_create`: O_CREAT, O_EXCL, O_NOFOLLOW).
  ///
  /// - Parameters:
  ///   - name: the new file's name.
  ///   - permissions: its mode before the umask, such as `0o600`.
  /// - Throws: openat(2)'s `Errno`.
  public func createEntry(_ name: String, permissions: UInt32) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(
      owning: try retryingInterrupts { name.withCString { pl_openat_create(directory, $0, permissions) } })
  }

  /// Opens `name` in this directory for appending, creating it if missing
  /// (`pl_openat_append`: O_APPEND, O_CREAT, O_NOFOLLOW): every write lands at the end,
  /// whole, even if another writer appended meanwhile.
  ///
  /// - Parameters:
  ///   - name: the file's name.
  ///   - permissions: its mode if created, before the umask.
  /// - Throws: openat(2)'s `Errno`: `.symbolicLinkLoop` when it is a symbolic link.
  public func openEntryForAppending(_ name: String, permissions: UInt32) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(
      owning: try retryingInterrupts { name.withCString { pl_openat_append(directory, $0, permissions) } })
  }

  /// Opens (creating it if missing) a lock file in this directory for `flock`
  /// (`pl_openat_lock`: read-write, or read-only on a read-only file system).
  ///
  /// - Parameters:
  ///   - name: the lock file's name.
  ///   - permissions: its mode if created.
  /// - Throws: openat(2)'s `Errno`.
  public func openLockFile(_ name: String, permissions: UInt32) throws(Errno) -> FileDescriptor {
    let directory = rawValue
    return FileDescriptor(
      owning: try retryingInterrupts { name.withCString { pl_openat_lock(directory, $0, permissions) } })
  }

  /// Renames `name` to `newName`, both in this directory, replacing any file there
  /// (`pl_renameat`, renameat(2)).
  ///
  /// - Throws: renameat(2)'s `Errno`.
  public func renameEntry(_ name: String, to newName: String) throws(Errno) {
    let directory = rawValue
    try retryingInterrupts { name.withCString { from in newName.withCString { to in pl_renameat(directory, from, to) } } }
  }

  /// Removes the file `name` from this directory (`pl_unlinkat`, unlinkat(2)).
  ///
  /// - Throws: unlinkat(2)'s `Errno`, `.noEntry` included.
  public func removeEntry(_ name: String) throws(Errno) {
    let directory = rawValue
    try retryingInterrupts { name.withCString { pl_unlinkat(directory, $0) } }
  }

  /// Removes every regular file in this directory whose name contains `marker`
  /// (`pl_unlink_names_containing`).
  ///
  /// - Parameter marker: what the names to remove contain, such as `.tmp`.
  /// - Returns: how many files were removed.
  /// - Throws: the `Errno` of listing the directory.
  @discardableResult
  public func removeEntries(containing marker: String) throws(Errno) -> Int {
    let directory = rawValue
    return Int(try retryingInterrupts { marker.withCString { pl_unlink_names_containing(directory, $0) } })
  }

  /// Takes an exclusive `flock` on this file without waiting
  /// (`pl_flock_exclusive_try`: LOCK_EX|LOCK_NB), retrying `EINTR`. Closing the
  /// descriptor releases it.
  ///
  /// - Returns: true when the lock is now held, false when another holds it.
  /// - Throws: flock(2)'s `Errno` for any other failure.
  public func tryLockExclusively() throws(Errno) -> Bool {
    let fd = rawValue
    return try retryingInterrupts { pl_flock_exclusive_try(fd) } == 0
  }

  /// Takes an exclusive record lock on the one byte at `offset` without waiting
  /// (`pl_record_lock_try`: F_OFD_SETLK), retrying `EINTR`: many holders may share one
  /// file, one per byte. Closing the descriptor releases it.
  ///
  /// - Returns: true when the lock is now held, false when another open file holds it.
  /// - Throws: fcntl(2)'s `Errno` for any other failure (`EBADF` on a file opened
  ///   read-only).
  public func tryLockByte(at offset: Int64) throws(Errno) -> Bool {
    let fd = rawValue
    return try retryingInterrupts { pl_record_lock_try(fd, offset) } == 0
  }
}
