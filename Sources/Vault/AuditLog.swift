import LockEvents
import CShim
import SystemCalls
import Systemd

/// The audit log: `audit.log` in the state directory, one `AuditEntry` per line,
/// appended (O_APPEND) and synced before the caller goes on, so that nothing is shown
/// or printed about an attempt that the log does not already hold. The caller holds
/// the directory's lock, so entries of two processes never interleave.
///
/// Bounded: an append that finds `audit.log` at `rotationBytes` or more first renames it
/// to `audit.log.1` (replacing the one before) and syncs the directory, so the log is
/// at most two files of about `rotationBytes` each, and `entries` reads both, oldest
/// first. A crash during a rotation loses nothing but what rotation itself drops (the
/// older `audit.log.1`): the rename is atomic, and the next append starts a new file.
///
/// The file is trusted as the state files are: a regular file (never followed through
/// a symbolic link) of the effective user's, closed to group and others.
public enum AuditLog {
  public static let name = "audit.log"
  public static let rotatedName = "audit.log.1"
  /// The size past which `audit.log` is rotated (256 KiB: about 2000 entries a file).
  public static let rotationBytes: Int64 = 256 * 1024
  /// The most `entries` reads from one file: a file grown far past its bound was not
  /// written by patternlock.
  static let maximumReadBytes = 4 * 1024 * 1024

  /// The steps of `append`, numbered for the crash seam.
  enum Step: Int {
    case rotated = 30
    case opened
    case wroteFirstHalf
    case wroteAll
    case synced
  }

  /// Appends `entry`, synced, then sends it to the journal and hands it to `observer`
  /// (best effort: the log file is what counts). The caller holds the directory's lock.
  ///
  /// - Throws: `VaultError.auditNotWritten` naming the failed step, or
  ///   `.auditLogUnusable`: the entry may then not be stored, and the caller must treat
  ///   what it was about to report as not done.
  public static func append(_ entry: AuditEntry, to directory: borrowing StateDirectory) throws(VaultError) {
    let path = directory.pathOf(name)
    try rotateIfFull(directory)
    let file: FileDescriptor
    do throws(Errno) {
      file = try directory.directory.openEntryForAppending(name, permissions: 0o600)
    } catch {
      if error == .symbolicLinkLoop { throw .auditLogUnusable(path: path, problem: "it is a symbolic link") }
      throw .auditNotWritten(path: path, call: "open", errno: error)
    }
    StateDirectory.crashIfAsked(at: Step.opened.rawValue)
    let status: FileStatus
    do throws(Errno) {
      status = try file.status()
    } catch {
      throw .auditNotWritten(path: path, call: "fstat", errno: error)
    }
    guard status.kind == .regular else {
      throw .auditLogUnusable(path: path, problem: "it is \(status.kind.phrase), not a regular file")
    }
    let user = CurrentProcess.effectiveUser.rawValue
    guard status.owner == user else { throw .auditLogUnusable(path: path, problem: "it is owned by user \(status.owner), not \(user)") }
    if status.permissions & 0o077 != 0 {
      // Only a file just created (the umask's doing) is put right; one that exists with
      // the wrong mode was changed by someone else.
      guard status.size == 0 else {
        throw .auditLogUnusable(path: path, problem: "its mode is \(VaultError.octal(status.permissions)), not 0600")
      }
      do throws(Errno) {
        try file.setPermissions(0o600)
      } catch {
        throw .auditNotWritten(path: path, call: "fchmod", errno: error)
      }
    }
    // A line torn by a crash gets its newline now, so this entry stands on its own.
    let torn: Bool
    do throws(Errno) {
      let last = status.size > 0 ? try file.byte(at: status.size - 1) : UInt8(ascii: "\n")
      torn = last != UInt8(ascii: "\n")
    } catch {
      throw .auditNotWritten(path: path, call: "pread", errno: error)
    }
    let bytes = Array(((torn ? "\n" : "") + entry.jsonLine + "\n").utf8)
    let half = bytes.count / 2
    do throws(Errno) {
      try file.writeAll(bytes[..<half])
      StateDirectory.crashIfAsked(at: Step.wroteFirstHalf.rawValue)
      try file.writeAll(bytes[half...])
    } catch {
      throw .auditNotWritten(path: path, call: "write", errno: error)
    }
    StateDirectory.crashIfAsked(at: Step.wroteAll.rawValue)
    do throws(Errno) {
      try file.synchronize()
      // A new file's name must be on disk too, as must a rotation's.
      if status.size == 0 { try directory.directory.synchronize() }
    } catch {
      throw .auditNotWritten(path: path, call: "fsync", errno: error)
    }
    StateDirectory.crashIfAsked(at: Step.synced.rawValue)
    file.close()
    sendToJournal(entry)
    observer?(entry)
  }

  /// Who hears each entry once it is stored, as the command installed it (the event
  /// socket's reporter, through the running lock's own connection or one a line); nobody
  /// by default. Best effort: the log is the record. The vault itself opens no socket.
  nonisolated(unsafe) public static var observer: ((AuditEntry) -> Void)?

  /// Renames a full `audit.log` to `audit.log.1` and syncs the directory.
  private static func rotateIfFull(_ directory: borrowing StateDirectory) throws(VaultError) {
    let size: Int64
    do throws(Errno) {
      size = try directory.directory.statusOfEntry(name).size
    } catch {
      if error == .noEntry { return }
      throw .auditNotWritten(path: directory.pathOf(name), call: "fstatat", errno: error)
    }
    guard size >= rotationBytes else { return }
    do throws(Errno) {
      try directory.directory.renameEntry(name, to: rotatedName)
      try directory.directory.synchronize()
    } catch {
      throw .auditNotWritten(path: directory.pathOf(rotatedName), call: "rename", errno: error)
    }
    StateDirectory.crashIfAsked(at: Step.rotated.rawValue)
  }

  /// Appends `entry` to the log of the state directory at `path`, under its lock:
  /// for entries that no attempt comes with (the door's own events).
  ///
  /// - Throws: `VaultError` of opening the directory, taking its lock, or `append`.
  public static func record(_ entry: AuditEntry, inStateDirectory path: String) throws(VaultError) {
    let directory = try StateDirectory(opening: path, creating: false)
    try directory.withExclusiveLock { () throws(VaultError) in try append(entry, to: directory) }
  }

  /// The entry in the journal, with its fields and the event's MESSAGE_ID.
  static func sendToJournal(_ entry: AuditEntry) {
    var fields: [(name: String, value: String)] = [
      ("MESSAGE", "patternlock audit: " + entry.humanLine),
      ("MESSAGE_ID", entry.event.messageID),
      ("PRIORITY", entry.event == .unlocked || entry.event == .attempt ? "6" : "5"),
      ("SYSLOG_IDENTIFIER", "patternlock"),
      ("PATTERNLOCK_EVENT", entry.event.rawValue),
    ]
    if let credential = entry.credential { fields.append(("PATTERNLOCK_CREDENTIAL", credential)) }
    if let failures = entry.failures { fields.append(("PATTERNLOCK_FAILURES", "\(failures)")) }
    if let reason = entry.reason { fields.append(("PATTERNLOCK_REASON", reason)) }
    if let guesses = entry.guesses { fields.append(("PATTERNLOCK_GUESSES", guesses)) }
    _ = try? JournalMessage.send(fields)
  }

  /// One line of the log as read back.
  public enum Line: Equatable {
    case entry(AuditEntry)
    /// A line that is not an entry (torn by a crash in the middle of a write, or
    /// changed): its file and line number.
    case corrupt(file: String, line: Int)
  }

  /// Every line of `audit.log.1` then `audit.log`, oldest first.
  ///
  /// - Throws: `.auditLogUnusable` when a file is there but cannot be trusted or read.
  public static func lines(in directory: borrowing StateDirectory) throws(VaultError) -> [Line] {
    var lines: [Line] = []
    for file in [rotatedName, name] {
      let bytes: [UInt8]
      switch directory.read(file, limit: maximumReadBytes) {
      case .missing: continue
      case .unusable(let problem): throw .auditLogUnusable(path: directory.pathOf(file), problem: problem)
      case .bytes(let read): bytes = read
      }
      let text = String(decoding: bytes, as: UTF8.self)
      var number = 0
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        number += 1
        if line.isEmpty { continue }
        if let entry = AuditEntry(jsonLine: line) {
          lines.append(.entry(entry))
        } else {
          lines.append(.corrupt(file: directory.pathOf(file), line: number))
        }
      }
    }
    return lines
  }
}
