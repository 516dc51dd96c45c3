import CShim

/// Directories by path: listing the names in one, and making one.
public enum Directory {
  /// Which call of `names(in:where:)` failed.
  public enum ListingFailure: Error, Equatable {
    /// opendir(3) failed (`.noEntry`: no such directory; `.notADirectory`: a file).
    case cannotOpen(Errno)
    /// readdir(3) failed part-way.
    case cannotRead(Errno)

    /// The failing call's name, for messages: `opendir` or `readdir`.
    public var call: String {
      switch self {
      case .cannotOpen: return "opendir"
      case .cannotRead: return "readdir"
      }
    }

    /// The errno of the failing call.
    public var errno: Errno {
      switch self {
      case .cannotOpen(let errno), .cannotRead(let errno): return errno
      }
    }
  }

  /// The names in the directory at `path` that `include` accepts, `.` and `..` never
  /// among them, sorted bytewise (by their UTF-8, as `ls` in the C locale does), so
  /// the order never depends on the file system's (`pl_opendir`, `pl_readdir_name`).
  ///
  /// - Parameters:
  ///   - path: the directory.
  ///   - include: which names to keep; all unless given.
  /// - Returns: the names, without the directory.
  /// - Throws: which call failed, with its `Errno`.
  public static func names(in path: String, where include: (String) -> Bool = { _ in true }) throws(ListingFailure) -> [String] {
    guard let handle = path.withCString({ pl_opendir($0) }) else { throw .cannotOpen(.current) }
    return try names(listing: handle, where: include)
  }

  /// The names `include` accepts from an open listing (`pl_opendir` or
  /// `pl_opendir_descriptor`), which this closes.
  static func names(listing handle: UnsafeMutableRawPointer, where include: (String) -> Bool) throws(ListingFailure) -> [String] {
    defer { pl_closedir(handle) }
    var names: [String] = []
    // pl_readdir_name clears errno first, so a NULL with errno 0 is the end.
    while let entry = pl_readdir_name(handle) {
      let name = String(cString: entry)
      if name != "." && name != ".." && include(name) { names.append(name) }
    }
    let error = Errno.current
    if error.rawValue != 0 { throw .cannotRead(error) }
    return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Makes a directory (`pl_mkdir`, mkdir(2)); one already there is no error.
  ///
  /// - Parameters:
  ///   - path: the new directory.
  ///   - permissions: its mode before the umask, such as `0o700`.
  /// - Throws: mkdir(2)'s `Errno`.
  public static func make(_ path: String, permissions: UInt32) throws(Errno) {
    try retryingInterrupts { path.withCString { pl_mkdir($0, permissions) } }
  }
}
