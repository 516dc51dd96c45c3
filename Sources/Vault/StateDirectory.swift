import CShim

/// The directory that holds the pattern hash and the attempts file, held open so
/// every file operation is relative to it (`openat`, `renameat`) and a symlink swapped
/// in for the directory or a file can never redirect a read or a write.
///
/// The directory must be a real directory (not a symlink), owned by the effective user
/// and closed to group and others (`0700`); each file a regular file owned by the same
/// user with mode `0600`. Anything else is refused for the directory, and makes a file
/// `unusable` (which the caller turns into "locked" or "not enrolled").
///
/// Writes are crash-safe: temporary file (a unique name, so two writers can never
/// share one), write, `fsync`, `rename` over the old file, `fsync` of the directory, so
/// after a crash at any point the file holds either the old or the new contents.
/// Writers hold the directory's lock (`lockExclusively`), under which temporaries
/// left by a crash are removed. Debug builds can be told to end the process after any
/// step (`PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP=N`) so a test can prove it; release
/// builds do not contain that seam.
public struct StateDirectory: ~Copyable {
  /// Where state lives unless `--state-dir` says otherwise.
  public static let defaultPath = "/var/lib/patternlock"
  /// The most bytes a state file may have; anything larger is damage.
  static let maximumFileBytes = 4096

  /// The directory's path, for messages.
  public let path: String
  private let fd: Int32

  /// Opens (and with `creating`, first makes, mode 0700) the state directory.
  ///
  /// - Throws: `VaultError.stateDirectoryMissing`, `.stateDirectoryNotADirectory`,
  ///   `.stateDirectoryInsecure` or `.systemCall`.
  public init(opening path: String, creating: Bool) throws(VaultError) {
    var status = pl_file_status()
    var created = false
    if path.withCString({ pl_lstat($0, &status) }) != 0 {
      let error = pl_errno()
      guard error == 2 /* ENOENT */ else { throw .systemCall(call: "lstat", path: path, errno: error) }
      guard creating else { throw .stateDirectoryMissing(path: path) }
      guard path.withCString({ pl_mkdir($0, 0o700) }) == 0 else {
        throw .systemCall(call: "mkdir", path: path, errno: pl_errno())
      }
      created = true
      guard path.withCString({ pl_lstat($0, &status) }) == 0 else {
        throw .systemCall(call: "lstat", path: path, errno: pl_errno())
      }
    }
    guard status.type == Int32(PL_FILE_DIRECTORY) else {
      throw .stateDirectoryNotADirectory(path: path, kind: StateDirectory.kindName(status.type))
    }
    let fd = path.withCString { pl_open_directory($0) }
    guard fd >= 0 else { throw .systemCall(call: "open", path: path, errno: pl_errno()) }
    // From here the descriptor is what counts: the path may have been swapped meanwhile.
    if created { _ = pl_fchmod(fd, 0o700) }
    guard pl_fstat(fd, &status) == 0 else {
      let error = pl_errno()
      _ = pl_close(fd)
      throw .systemCall(call: "fstat", path: path, errno: error)
    }
    let user = pl_geteuid()
    guard status.owner == user, status.permissions & 0o077 == 0 else {
      _ = pl_close(fd)
      throw .stateDirectoryInsecure(path: path, permissions: status.permissions, owner: status.owner, expectedOwner: user)
    }
    self.path = path
    self.fd = fd
  }

  deinit { _ = pl_close(fd) }

  /// The path of a file in the directory, for messages.
  public func pathOf(_ name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }

  /// What reading a state file found.
  public enum FileContents: Equatable {
    /// No file of that name.
    case missing
    /// A trustworthy file's bytes (not yet parsed).
    case bytes([UInt8])
    /// Something is there but cannot be trusted or read; `problem` says why.
    case unusable(problem: String)
  }

  /// Reads a whole state file, checking its type, owner and mode first.
  public func read(_ name: String) -> FileContents {
    let file = name.withCString { pl_openat_read(fd, $0) }
    guard file >= 0 else {
      let error = pl_errno()
      switch error {
      case 2: return .missing  // ENOENT
      case 40: return .unusable(problem: "it is a symbolic link")  // ELOOP
      default: return .unusable(problem: "it cannot be opened: \(VaultError.describe(error))")
      }
    }
    defer { _ = pl_close(file) }
    var status = pl_file_status()
    guard pl_fstat(file, &status) == 0 else {
      return .unusable(problem: "fstat failed: \(VaultError.describe(pl_errno()))")
    }
    guard status.type == Int32(PL_FILE_REGULAR) else {
      return .unusable(problem: "it is \(StateDirectory.kindName(status.type)), not a regular file")
    }
    let user = pl_geteuid()
    guard status.owner == user else { return .unusable(problem: "it is owned by user \(status.owner), not \(user)") }
    guard status.permissions & 0o077 == 0 else {
      return .unusable(problem: "its mode is \(VaultError.octal(status.permissions)), not 0600")
    }
    guard status.size <= Int64(StateDirectory.maximumFileBytes) else {
      return .unusable(problem: "it is \(status.size) bytes, more than a state file holds")
    }
    var bytes = [UInt8](repeating: 0, count: StateDirectory.maximumFileBytes + 1)
    var filled = 0
    while filled < bytes.count {
      let n = bytes.withUnsafeMutableBytes { pl_read(file, $0.baseAddress! + filled, $0.count - filled) }
      if n < 0 { return .unusable(problem: "reading failed: \(VaultError.describe(pl_errno()))") }
      if n == 0 { break }
      filled += n
    }
    guard filled <= StateDirectory.maximumFileBytes else {
      return .unusable(problem: "it grew past \(StateDirectory.maximumFileBytes) bytes while being read")
    }
    return .bytes(Array(bytes[0..<filled]))
  }

  /// The name of the lock file every reader-then-writer of the directory holds.
  public static let lockName = "lock"
  /// What marks a temporary file's name (`attempts.tmp.<pid>.<random>`).
  static let temporaryMarker = ".tmp"

  /// Takes the directory's exclusive lock (`flock` on its `lock` file), waiting at most
  /// `waitMicroseconds` for another process to release it, and removes temporaries that
  /// a crashed writer left (only a lock holder writes, so any there now are stale).
  ///
  /// - Throws: `VaultError.stateBusy` when the wait runs out, `.systemCall` when the
  ///   lock file cannot be opened or locked.
  public func lockExclusively(waitMicroseconds: UInt64 = StateLock.defaultWaitMicroseconds) throws(VaultError) -> StateLock {
    var waitMicroseconds = waitMicroseconds
    #if DEBUG
    // Tests of a stuck holder need not wait the full bound (debug builds only).
    if let value = pl_getenv("PATTERNLOCK_TEST_LOCK_WAIT_MS"), let ms = StateFileCodec.number(Substring(String(cString: value))) { waitMicroseconds = UInt64(ms) * 1000 }
    #endif
    let lockFD = StateDirectory.lockName.withCString { pl_openat_lock(fd, $0, 0o600) }
    guard lockFD >= 0 else { throw .systemCall(call: "open", path: pathOf(StateDirectory.lockName), errno: pl_errno()) }
    let started = pl_monotonic_microseconds()
    var pause: UInt64 = 1000
    while true {
      let result = pl_flock_exclusive_try(lockFD)
      if result == 0 { break }
      let error = pl_errno()
      guard result == 1 else {
        _ = pl_close(lockFD)
        throw .systemCall(call: "flock", path: pathOf(StateDirectory.lockName), errno: error)
      }
      guard pl_monotonic_microseconds() - started < waitMicroseconds else {
        _ = pl_close(lockFD)
        throw .stateBusy(path: path, waitedSeconds: Int((waitMicroseconds + 999_999) / 1_000_000))
      }
      pl_sleep_microseconds(pause)
      pause = min(pause * 2, 50_000)
    }
    StateDirectory.reached(.locked)
    // Stale temporaries only take space; failing to list them is no reason to stop.
    _ = StateDirectory.temporaryMarker.withCString { pl_unlink_names_containing(fd, $0) }
    return StateLock(fd: lockFD)
  }

  /// Runs `body` holding the directory's exclusive lock (see `lockExclusively`).
  public func withExclusiveLock<R>(_ body: () throws(VaultError) -> R) throws(VaultError) -> R {
    let held = try lockExclusively()
    let result: R
    do {
      result = try body()
    } catch {
      held.release()
      throw error
    }
    held.release()
    return result
  }

  /// The steps of `write`, numbered for the crash seam.
  enum WriteStep: Int {
    case locked = 1
    case createdTemporary
    case wroteFirstHalf
    case wroteAll
    case setMode
    case syncedFile
    case closedFile
    case renamed
    case syncedDirectory
  }

  /// Replaces a state file crash-safely (mode 0600): `name.tmp.<pid>.<random>` is
  /// created exclusively, written, synced, closed and renamed over `name`, then the
  /// directory is synced so the rename itself is on disk. The caller holds the lock.
  ///
  /// - Throws: `VaultError.systemCall` naming the failed step; the old file is then
  ///   untouched (and a temporary left behind goes with the next lock).
  public func write(_ name: String, _ bytes: [UInt8]) throws(VaultError) {
    let temporary = name + StateDirectory.temporaryMarker + ".\(pl_getpid()).\(pl_monotonic_microseconds())"
    let temporaryPath = pathOf(temporary)
    let file = temporary.withCString { pl_openat_create(fd, $0, 0o600) }
    guard file >= 0 else { throw .systemCall(call: "create", path: temporaryPath, errno: pl_errno()) }
    StateDirectory.reached(.createdTemporary)
    var closed = false
    var renamed = false
    defer {
      if !closed { _ = pl_close(file) }
      if !renamed { _ = temporary.withCString { pl_unlinkat(fd, $0) } }
    }
    let half = bytes.count / 2
    let written = bytes.withUnsafeBytes { raw -> Bool in
      guard pl_write_all(file, raw.baseAddress, half) == 0 else { return false }
      StateDirectory.reached(.wroteFirstHalf)
      return pl_write_all(file, raw.baseAddress! + half, raw.count - half) == 0
    }
    guard written else { throw .systemCall(call: "write", path: temporaryPath, errno: pl_errno()) }
    StateDirectory.reached(.wroteAll)
    // The umask may have taken bits away from 0600; set exactly what is checked on read.
    guard pl_fchmod(file, 0o600) == 0 else { throw .systemCall(call: "fchmod", path: temporaryPath, errno: pl_errno()) }
    StateDirectory.reached(.setMode)
    guard pl_fsync(file) == 0 else { throw .systemCall(call: "fsync", path: temporaryPath, errno: pl_errno()) }
    StateDirectory.reached(.syncedFile)
    closed = true
    // close after fsync reports nothing new; its result is not a reason to stop.
    _ = pl_close(file)
    StateDirectory.reached(.closedFile)
    guard temporary.withCString({ from in name.withCString { to in pl_renameat(fd, from, to) } }) == 0 else {
      throw .systemCall(call: "rename", path: pathOf(name), errno: pl_errno())
    }
    renamed = true
    StateDirectory.reached(.renamed)
    guard pl_fsync(fd) == 0 else { throw .systemCall(call: "fsync", path: path, errno: pl_errno()) }
    StateDirectory.reached(.syncedDirectory)
  }

  /// Ends the process at once after the step named in the environment (debug builds).
  private static func reached(_ step: WriteStep) { crashIfAsked(at: step.rawValue) }

  /// Ends the process at once when `PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP` names
  /// `step` (debug builds only; release builds do not contain the seam).
  static func crashIfAsked(at step: Int) {
    #if DEBUG
    guard let value = pl_getenv("PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP") else { return }
    if String(cString: value) == "\(step)" { pl_exit_immediately(86) }
    #endif
  }

  static func kindName(_ type: Int32) -> String {
    switch type {
    case Int32(PL_FILE_DIRECTORY): return "a directory"
    case Int32(PL_FILE_SYMLINK): return "a symbolic link"
    case Int32(PL_FILE_REGULAR): return "a regular file"
    default: return "a device, pipe or socket"
    }
  }
}
