import CShim
import SystemCalls

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
  /// The directory, held open: every file operation is relative to it.
  let directory: FileDescriptor

  /// Opens (and with `creating`, first makes, mode 0700) the state directory.
  ///
  /// - Throws: `VaultError.stateDirectoryMissing`, `.stateDirectoryNotADirectory`,
  ///   `.stateDirectoryInsecure` or `.systemCall`.
  public init(opening path: String, creating: Bool) throws(VaultError) {
    var status: FileStatus
    var created = false
    do throws(Errno) {
      status = try FileStatus(ofPath: path, followingSymlinks: false)
    } catch {
      guard error == .noEntry else { throw .systemCall(call: "lstat", path: path, errno: error) }
      guard creating else { throw .stateDirectoryMissing(path: path) }
      do throws(Errno) {
        try Directory.make(path, permissions: 0o700)
      } catch {
        throw .systemCall(call: "mkdir", path: path, errno: error)
      }
      created = true
      do throws(Errno) {
        status = try FileStatus(ofPath: path, followingSymlinks: false)
      } catch {
        throw .systemCall(call: "lstat", path: path, errno: error)
      }
    }
    guard status.kind == .directory else {
      throw .stateDirectoryNotADirectory(path: path, kind: status.kind.phrase)
    }
    // A throw from here on closes `directory`.
    let directory: FileDescriptor
    do throws(Errno) {
      directory = try FileDescriptor.openDirectory(path)
    } catch {
      throw .systemCall(call: "open", path: path, errno: error)
    }
    // From here the descriptor is what counts: the path may have been swapped meanwhile.
    if created { _ = try? directory.setPermissions(0o700) }
    do throws(Errno) {
      status = try directory.status()
    } catch {
      throw .systemCall(call: "fstat", path: path, errno: error)
    }
    let user = CurrentProcess.effectiveUser.rawValue
    guard status.owner == user, status.permissions & 0o077 == 0 else {
      throw .stateDirectoryInsecure(path: path, permissions: status.permissions, owner: status.owner, expectedOwner: user)
    }
    self.path = path
    self.directory = directory
  }

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
  public func read(_ name: String) -> FileContents { read(name, limit: StateDirectory.maximumFileBytes) }

  /// Reads a whole file of at most `limit` bytes, with the checks of `read`.
  func read(_ name: String, limit: Int) -> FileContents {
    let file: FileDescriptor
    do throws(Errno) {
      file = try directory.openEntry(name)
    } catch {
      switch error {
      case .noEntry: return .missing
      case .symbolicLinkLoop: return .unusable(problem: "it is a symbolic link")
      default: return .unusable(problem: "it cannot be opened: \(error.text)")
      }
    }
    let status: FileStatus
    do throws(Errno) {
      status = try file.status()
    } catch {
      return .unusable(problem: "fstat failed: \(error.text)")
    }
    guard status.kind == .regular else {
      return .unusable(problem: "it is \(status.kind.phrase), not a regular file")
    }
    let user = CurrentProcess.effectiveUser.rawValue
    guard status.owner == user else { return .unusable(problem: "it is owned by user \(status.owner), not \(user)") }
    guard status.permissions & 0o077 == 0 else {
      return .unusable(problem: "its mode is \(VaultError.octal(status.permissions)), not 0600")
    }
    guard status.size <= Int64(limit) else {
      return .unusable(problem: "it is \(status.size) bytes, more than a state file holds")
    }
    let contents: (bytes: [UInt8], isComplete: Bool)
    do throws(Errno) {
      contents = try file.readToEnd(limit: limit)
    } catch {
      return .unusable(problem: "reading failed: \(error.text)")
    }
    guard contents.isComplete else {
      return .unusable(problem: "it grew past \(limit) bytes while being read")
    }
    return .bytes(contents.bytes)
  }

  /// The name of the lock file every reader-then-writer of the directory holds.
  public static let lockName = "lock"
  /// What marks a temporary file's name (`attempts.tmp.<pid>.<random>`).
  static let temporaryMarker = ".tmp"

  /// Takes the directory's exclusive lock (`flock` on its `lock` file), waiting at most
  /// `waitMicroseconds` for another process to release it, and removes temporaries that
  /// a crashed writer left (only a lock holder writes, so any there now are stale).
  ///
  /// - Throws: `VaultError.stateBusy` when the wait runs out, `.stateLockUnusable` when
  ///   the lock file is not a 0600 regular file of the effective user's, `.systemCall`
  ///   when it cannot be opened or locked.
  public func lockExclusively(waitMicroseconds: UInt64 = StateLock.defaultWaitMicroseconds) throws(VaultError) -> StateLock {
    var waitMicroseconds = waitMicroseconds
    #if DEBUG
    // Tests of a stuck holder need not wait the full bound (debug builds only).
    if let value = CurrentProcess.environmentVariable("PATTERNLOCK_TEST_LOCK_WAIT_MS"), let ms = StateFileCodec.number(Substring(value)) { waitMicroseconds = UInt64(ms) * 1000 }
    #endif
    // A throw from here on closes `lockFile`.
    let lockFile = try openLockFile(StateDirectory.lockName)
    let started = MonotonicClock.microseconds()
    var pause: UInt64 = 1000
    while true {
      let locked: Bool
      do throws(Errno) {
        locked = try lockFile.tryLockExclusively()
      } catch {
        throw .systemCall(call: "flock", path: pathOf(StateDirectory.lockName), errno: error)
      }
      if locked { break }
      guard MonotonicClock.microseconds() - started < waitMicroseconds else {
        throw .stateBusy(path: path, waitedSeconds: Int((waitMicroseconds + 999_999) / 1_000_000))
      }
      sleep(microseconds: pause)
      pause = min(pause * 2, 50_000)
    }
    StateDirectory.reached(.locked)
    // Stale temporaries only take space; failing to list them is no reason to stop.
    _ = try? directory.removeEntries(containing: StateDirectory.temporaryMarker)
    return StateLock(file: lockFile)
  }

  /// Opens (creating it, mode 0600, if missing) the lock file `name` (`lock`,
  /// `judging`), and checks on its descriptor that it is a regular file of the effective
  /// user's that nobody else may use: a FIFO, a link or a file another user planted or
  /// may open is refused (fail closed: nothing is judged without the lock).
  ///
  /// - Throws: `VaultError.stateLockUnusable`, or `.systemCall` for another failure.
  func openLockFile(_ name: String) throws(VaultError) -> FileDescriptor {
    let lockPath = pathOf(name)
    let lockFile: FileDescriptor
    do throws(Errno) {
      lockFile = try directory.openLockFile(name, permissions: 0o600)
    } catch {
      if error == .symbolicLinkLoop { throw .stateLockUnusable(path: lockPath, problem: "it is a symbolic link") }
      throw .systemCall(call: "open", path: lockPath, errno: error)
    }
    let status: FileStatus
    do throws(Errno) {
      status = try lockFile.status()
    } catch {
      throw .systemCall(call: "fstat", path: lockPath, errno: error)
    }
    guard status.kind == .regular else {
      throw .stateLockUnusable(path: lockPath, problem: "it is \(status.kind.phrase), not a regular file")
    }
    let user = CurrentProcess.effectiveUser.rawValue
    guard status.owner == user else {
      throw .stateLockUnusable(path: lockPath, problem: "it is owned by user \(status.owner), not \(user)")
    }
    guard status.permissions & 0o077 == 0 else {
      throw .stateLockUnusable(path: lockPath, problem: "its mode is \(VaultError.octal(status.permissions)), not 0600")
    }
    return lockFile
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
    let temporary = name + StateDirectory.temporaryMarker + ".\(CurrentProcess.id.rawValue).\(MonotonicClock.microseconds())"
    let temporaryPath = pathOf(temporary)
    let file: FileDescriptor
    do throws(Errno) {
      file = try directory.createEntry(temporary, permissions: 0o600)
    } catch {
      throw .systemCall(call: "create", path: temporaryPath, errno: error)
    }
    StateDirectory.reached(.createdTemporary)
    var renamed = false
    defer {
      if !renamed { _ = try? directory.removeEntry(temporary) }
    }
    // Closes `file`, also when it throws, before the temporary is removed above.
    try StateDirectory.fill(file, with: bytes, path: temporaryPath)
    StateDirectory.reached(.closedFile)
    do throws(Errno) {
      try directory.renameEntry(temporary, to: name)
    } catch {
      throw .systemCall(call: "rename", path: pathOf(name), errno: error)
    }
    renamed = true
    StateDirectory.reached(.renamed)
    do throws(Errno) {
      try directory.synchronize()
    } catch {
      throw .systemCall(call: "fsync", path: path, errno: error)
    }
    StateDirectory.reached(.syncedDirectory)
  }

  /// Removes a state file if it is there, then syncs the directory so the removal is on
  /// disk. The caller holds the lock.
  ///
  /// - Throws: `VaultError.systemCall` naming the failed step.
  public func remove(_ name: String) throws(VaultError) {
    do throws(Errno) {
      try directory.removeEntry(name)
    } catch {
      if error == .noEntry { return }
      throw .systemCall(call: "unlink", path: pathOf(name), errno: error)
    }
    do throws(Errno) {
      try directory.synchronize()
    } catch {
      throw .systemCall(call: "fsync", path: path, errno: error)
    }
  }

  /// The steps of `write` on the temporary file: write (in two halves, for the crash
  /// seam), set the mode, sync, close.
  ///
  /// - Throws: `VaultError.systemCall` naming the failed step; `file` is closed then too.
  private static func fill(_ file: consuming FileDescriptor, with bytes: [UInt8], path: String) throws(VaultError) {
    let half = bytes.count / 2
    do throws(Errno) {
      try file.writeAll(bytes[..<half])
      StateDirectory.reached(.wroteFirstHalf)
      try file.writeAll(bytes[half...])
    } catch {
      throw .systemCall(call: "write", path: path, errno: error)
    }
    StateDirectory.reached(.wroteAll)
    // The umask may have taken bits away from 0600; set exactly what is checked on read.
    do throws(Errno) {
      try file.setPermissions(0o600)
    } catch {
      throw .systemCall(call: "fchmod", path: path, errno: error)
    }
    StateDirectory.reached(.setMode)
    do throws(Errno) {
      try file.synchronize()
    } catch {
      throw .systemCall(call: "fsync", path: path, errno: error)
    }
    StateDirectory.reached(.syncedFile)
    // close after fsync reports nothing new; its result is not a reason to stop.
    file.close()
  }

  /// Ends the process at once after the step named in the environment (debug builds).
  private static func reached(_ step: WriteStep) { crashIfAsked(at: step.rawValue) }

  /// Ends the process at once when `PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP` names
  /// `step` (debug builds only; release builds do not contain the seam).
  static func crashIfAsked(at step: Int) {
    #if DEBUG
    // Stopped, a test can take the TPM away between two steps of one attempt.
    if CurrentProcess.environmentVariable("PATTERNLOCK_TEST_STOP_AT_STEP") == "\(step)" { CurrentProcess.stopSelf() }
    if CurrentProcess.environmentVariable("PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP") == "\(step)" { CurrentProcess.exitImmediately(status: 86) }
    #endif
  }
}
