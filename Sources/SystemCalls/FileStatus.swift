import CShim

/// What `stat` learns of a file: its size, type, owner and permission bits.
public struct FileStatus: Equatable, Sendable {
  /// What kind of file it is.
  public enum Kind: Equatable, Sendable {
    case regular
    case directory
    case symbolicLink
    /// A device, pipe or socket.
    case other

    /// The kind as messages say it: `a directory`, `a device, pipe or socket`.
    public var phrase: String {
      switch self {
      case .regular: return "a regular file"
      case .directory: return "a directory"
      case .symbolicLink: return "a symbolic link"
      case .other: return "a device, pipe or socket"
      }
    }
  }

  /// Bytes (for a regular file).
  public var size: Int64
  /// What kind of file it is.
  public var kind: Kind
  /// The permission bits (`st_mode & 0o7777`).
  public var permissions: UInt32
  /// The owning user.
  public var owner: UInt32

  /// Examines the file at `path` (`pl_stat`, or `pl_lstat` when not following a
  /// final symbolic link, which then reads as `.symbolicLink`).
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - followingSymlinks: whether a final symbolic link is followed.
  /// - Throws: the call's `Errno`, such as `.noEntry`.
  public init(ofPath path: String, followingSymlinks: Bool) throws(Errno) {
    var status = pl_file_status()
    try retryingInterrupts {
      path.withCString { followingSymlinks ? pl_stat($0, &status) : pl_lstat($0, &status) }
    }
    self.init(status)
  }

  /// Copies the shim's structure.
  init(_ status: pl_file_status) {
    size = status.size
    permissions = status.permissions
    owner = status.owner
    switch status.type {
    case Int32(PL_FILE_REGULAR): kind = .regular
    case Int32(PL_FILE_DIRECTORY): kind = .directory
    case Int32(PL_FILE_SYMLINK): kind = .symbolicLink
    default: kind = .other
    }
  }
}
