import SystemCalls

/// Reads layers 1 to 3 (`/usr/share/patternlock/patternlock.conf`,
/// `/etc/patternlock.conf`, `/etc/patternlock.conf.d/*.conf`) by walking from the root
/// down with a descriptor per directory, and says of each file whether it is trusted.
///
/// Each directory is opened relative to its parent (`O_DIRECTORY|O_NOFOLLOW`) and
/// checked with `fstat` on its descriptor; `conf.d` is listed from its descriptor and
/// each file opened relative to it (`O_NOFOLLOW|O_NONBLOCK`), checked with `fstat` and
/// read from that same descriptor. So nothing can be swapped in between the check and
/// the read, and a FIFO is refused rather than waited on. A file is trusted when it and
/// every directory above it, the root included, belong to a trusted owner and nobody
/// else may write them; a symbolic link on the way is followed (its file is still read)
/// but makes what lies behind it untrusted.
///
/// Rejected: `stat` of each path, then `open` by path (the file can be replaced between
/// the two); refusing a symbolic link outright (an administrator's link to a shared
/// file would then stop the lock screen, where an untrusted file costs it only the
/// privileged keys).
enum SystemLayers {
  /// The files of layers 1 and 2: their directories from the root, and their names.
  static let fixedFiles: [(directories: [String], name: String)] = [
    (["usr", "share", "patternlock"], "patternlock.conf"), (["etc"], "patternlock.conf"),
  ]
  /// Layer 3's directory, from the root.
  static let dropInDirectory = ["etc", "patternlock.conf.d"]
  /// Hands `body` each layer found under `root`, in reading order; missing ones are
  /// skipped. Each file's bytes live only while `body` runs, so a full `conf.d` costs
  /// the memory of one file.
  ///
  /// - Throws: `ConfigurationError` for a layer that exists but cannot be opened,
  ///   listed or read, is not a regular file, or is too large; for more than
  ///   `ConfigurationFiles.maximumDropIns` drop-ins; or what `body` threw.
  static func read(
    root: String, trust: ConfigurationTrust, _ body: (ConfigurationSource) throws(ConfigurationError) -> Void
  ) throws(ConfigurationError) {
    guard let top = try WalkedDirectory.root(root, trust: trust) else { return }
    for file in fixedFiles {
      guard let directory = try top.descending(file.directories) else { continue }
      if let source = try directory.read(file.name) { try body(source) }
    }
    if let dropIns = try top.descending(dropInDirectory) {
      let names = try dropIns.confNames()
      guard names.count <= ConfigurationFiles.maximumDropIns else {
        throw .tooManyDropIns(path: dropIns.path, count: names.count, maximum: ConfigurationFiles.maximumDropIns)
      }
      for name in names {
        if let source = try dropIns.read(name) { try body(source) }
      }
    }
  }
}

/// A directory of the walk, held open, with the reason (if any) that it and everything
/// below it are not trusted.
final class WalkedDirectory {
  let descriptor: FileDescriptor
  /// The directory's path, for messages (no trailing slash; empty for `/`).
  let path: String
  /// Nil while every directory from the root down to this one is trusted.
  let distrust: String?
  let trust: ConfigurationTrust

  init(descriptor: consuming FileDescriptor, path: String, distrust: String?, trust: ConfigurationTrust) {
    self.descriptor = descriptor
    self.path = path
    self.distrust = distrust
    self.trust = trust
  }

  /// The root directory, or nil when it does not exist.
  static func root(_ root: String, trust: ConfigurationTrust) throws(ConfigurationError) -> WalkedDirectory? {
    let base = root.hasSuffix("/") ? String(root.dropLast()) : root
    let shown = base.isEmpty ? "/" : base
    var symlink = false
    let descriptor: FileDescriptor
    do throws(Errno) {
      descriptor = try WalkedDirectory.open(symlink: &symlink) { (following) throws(Errno) in
        try FileDescriptor.openDirectory(shown, followingSymlink: following)
      } isSymlink: { () throws(Errno) in try FileStatus(ofPath: shown, followingSymlinks: false).kind == .symbolicLink }
    } catch {
      if error == .noEntry { return nil }
      throw .cannotRead(path: shown, call: "open", errno: error)
    }
    let why = try WalkedDirectory.distrust(ofDirectory: descriptor, path: shown, symlink: symlink, trust: trust)
    return WalkedDirectory(descriptor: descriptor, path: base, distrust: why, trust: trust)
  }

  /// The directory at `components` below this one, or nil when one of them is missing.
  func descending(_ components: [String]) throws(ConfigurationError) -> WalkedDirectory? {
    var directory = self
    for name in components {
      guard let next = try directory.subdirectory(name) else { return nil }
      directory = next
    }
    return directory
  }

  /// The subdirectory `name`, or nil when there is none.
  func subdirectory(_ name: String) throws(ConfigurationError) -> WalkedDirectory? {
    let childPath = path + "/" + name
    var symlink = false
    let child: FileDescriptor
    do throws(Errno) {
      child = try WalkedDirectory.open(symlink: &symlink) { (following) throws(Errno) in
        try descriptor.openSubdirectory(name, followingSymlink: following)
      } isSymlink: { () throws(Errno) in try descriptor.statusOfEntry(name).kind == .symbolicLink }
    } catch {
      if error == .noEntry { return nil }
      throw .cannotRead(path: childPath, call: "open", errno: error)
    }
    let why = try WalkedDirectory.distrust(ofDirectory: child, path: childPath, symlink: symlink, trust: trust)
    return WalkedDirectory(descriptor: child, path: childPath, distrust: distrust ?? why, trust: trust)
  }

  /// The `*.conf` names here, sorted bytewise (hidden files and other names, such as an
  /// editor's `x.conf~`, never count).
  func confNames() throws(ConfigurationError) -> [String] {
    do throws(Directory.ListingFailure) {
      return try descriptor.entryNames { $0.hasSuffix(".conf") && !$0.hasPrefix(".") }
    } catch {
      throw .cannotRead(path: path, call: error.call, errno: error.errno)
    }
  }

  /// The file `name` here, read from the descriptor it was checked on; nil when there
  /// is none.
  func read(_ name: String) throws(ConfigurationError) -> ConfigurationSource? {
    let filePath = path + "/" + name
    var symlink = false
    let file: FileDescriptor
    do throws(Errno) {
      file = try WalkedDirectory.open(symlink: &symlink) { (following) throws(Errno) in
        following ? try descriptor.openEntryFollowingSymlink(name) : try descriptor.openEntry(name)
      } isSymlink: { () throws(Errno) in try descriptor.statusOfEntry(name).kind == .symbolicLink }
    } catch {
      if error == .noEntry && !symlink { return nil }
      throw .cannotRead(path: filePath, call: "open", errno: error)
    }
    let (bytes, status) = try ConfigurationFiles.contents(of: file, path: filePath)
    let why: String?
    if symlink {
      why = "it is a symbolic link (put the file itself at \(filePath))"
    } else if !trust.trustedOwners.contains(status.owner) {
      why = "this file is owned by user \(status.owner), not \(trust.ownersText) (chown root:root \(filePath))"
    } else if status.permissions & 0o022 != 0 {
      why = "group or others may write this file (chmod go-w \(filePath))"
    } else {
      why = nil
    }
    return ConfigurationSource(path: filePath, bytes: bytes, distrust: distrust ?? why)
  }

  /// Opens without following a final symbolic link, and when there is one, opens again
  /// following it and sets `symlink`.
  ///
  /// - Parameters:
  ///   - opening: the open, told whether to follow.
  ///   - isSymlink: whether the name is a symbolic link, asked when the first open
  ///     fails with ELOOP or ENOTDIR (which O_DIRECTORY|O_NOFOLLOW gives for a link).
  private static func open(
    symlink: inout Bool, _ opening: (Bool) throws(Errno) -> FileDescriptor, isSymlink: () throws(Errno) -> Bool
  ) throws(Errno) -> FileDescriptor {
    do throws(Errno) {
      return try opening(false)
    } catch {
      guard error == .symbolicLinkLoop || error == .notADirectory, try isSymlink() else { throw error }
      symlink = true
      return try opening(true)
    }
  }

  /// Why a directory opened as `descriptor` is not trusted, or nil when it is.
  private static func distrust(
    ofDirectory descriptor: borrowing FileDescriptor, path: String, symlink: Bool, trust: ConfigurationTrust
  ) throws(ConfigurationError) -> String? {
    if symlink { return "the directory \(path) is a symbolic link (put the directory itself there)" }
    let status: FileStatus
    do throws(Errno) {
      status = try descriptor.status()
    } catch {
      throw .cannotRead(path: path, call: "fstat", errno: error)
    }
    guard trust.trustedOwners.contains(status.owner) else {
      return "the directory \(path) is owned by user \(status.owner), not \(trust.ownersText) (chown root:root \(path))"
    }
    guard status.permissions & 0o022 == 0 else {
      return "group or others may write the directory \(path) (chmod go-w \(path))"
    }
    return nil
  }
}
