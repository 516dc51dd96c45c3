import LockEvents
import PatternCore
import SystemCalls

/// The attempts file (`attempts` in the state directory): the failure count, the time
/// of the last failure (wall clock, and the boot and monotonic time when known) and up
/// to 5 fingerprints of recent wrong patterns, never the patterns themselves.
///
/// ```
/// patternlock-attempts 2
/// failures 6
/// last-failure 1717171717
/// last-failure-boot 6f1c0b2e9d8a47c5b3e2a1f0d9c8b7a6 81234567
/// wrong 0f1e2d3c4b5a69788796a5b4c3d2e1f0 1717171700
/// wrong 00112233445566778899aabbccddeeff 1717171717
/// checksum 5d41402abc4b2a76b9719d911017c592
/// ```
/// Version 1 (no `last-failure-boot` line) is still read: its lockout, having no
/// known start, restarts in full.
public enum AttemptsFile {
  /// The file's name in the state directory.
  public static let name = "attempts"
  static let kind = "patternlock-attempts"
  /// Versions read, the written one last.
  static let versions = [1, 2]

  /// The file's bytes for a record.
  public static func encode(_ record: AttemptRecord) -> [UInt8] {
    var lines = ["failures \(record.failures)", "last-failure \(record.lastFailureWallSeconds)"]
    if let stamp = record.lastFailureMonotonic {
      lines.append("last-failure-boot \(stamp.boot.hex) \(stamp.microseconds)")
    }
    for entry in record.recentWrong {
      lines.append("wrong \(entry.fingerprint.hex) \(entry.wallSeconds)")
    }
    return StateFileCodec.seal(kind: kind, version: versions[versions.count - 1], lines: lines)
  }

  /// The record in a file's bytes, or why they cannot be believed.
  public static func decode(_ bytes: [UInt8]) -> AttemptsState {
    switch StateFileCodec.open(bytes, kind: kind, versions: versions) {
    case .failure(let damage):
      return .damaged(problem: damage.problem)
    case .success(let opened):
      var lines = opened.lines
      var stamp: AttemptRecord.MonotonicStamp?
      if opened.version >= 2, lines.count >= 3, let value = StateFileCodec.value(lines[2], key: "last-failure-boot") {
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let boot = BootIdentity(hex: String(parts[0])), String(parts[0]) == boot.hex,
          let microseconds = StateFileCodec.number(parts[1])
        else { return .damaged(problem: "its 'last-failure-boot' line is not '<32 hex digits> <microseconds>'") }
        stamp = AttemptRecord.MonotonicStamp(boot: boot, microseconds: UInt64(microseconds))
        lines.remove(at: 2)
      }
      guard lines.count >= 2, lines.count <= 2 + AttemptRecord.recentCapacity,
        let failuresText = StateFileCodec.value(lines[0], key: "failures"),
        let failures = StateFileCodec.number(failuresText[...]), failures <= 999_999,
        let lastText = StateFileCodec.value(lines[1], key: "last-failure"),
        let last = StateFileCodec.number(lastText[...])
      else { return .damaged(problem: "its fields are not 'failures N', 'last-failure T', then at most 5 'wrong' lines") }
      var recent: [AttemptRecord.RecentWrong] = []
      for line in lines[2...] {
        guard let value = StateFileCodec.value(line, key: "wrong") else {
          return .damaged(problem: "a line after 'last-failure' is not a 'wrong' line")
        }
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let fingerprint = PatternFingerprint(hex: String(parts[0])),
          String(parts[0]) == fingerprint.hex, let time = StateFileCodec.number(parts[1])
        else { return .damaged(problem: "a 'wrong' line is not '<32 hex digits> <seconds>'") }
        recent.append(AttemptRecord.RecentWrong(fingerprint: fingerprint, wallSeconds: time))
      }
      return .intact(AttemptRecord(failures: Int(failures), lastFailureWallSeconds: last, recentWrong: recent, lastFailureMonotonic: stamp))
    }
  }

  /// Reads the attempts file of a state directory. Never throws: whatever goes wrong
  /// is `damaged`, which callers treat as locked.
  public static func load(from directory: borrowing StateDirectory) -> AttemptsState {
    switch directory.read(name) {
    case .missing: return .damaged(problem: "it is missing")
    case .unusable(let problem): return .damaged(problem: problem)
    case .bytes(let bytes): return decode(bytes)
    }
  }

  /// Clears the counter (`reset-attempts`), holding the directory's lock, after an
  /// `attempts-reset` entry in the audit log (with the failures it clears, and `reason`).
  ///
  /// - Throws: `VaultError.systemCall`, `.stateBusy`, `.auditNotWritten`: nothing is
  ///   cleared then.
  public static func reset(in directory: borrowing StateDirectory, reason: String? = nil) throws(VaultError) {
    try directory.withExclusiveLock { () throws(VaultError) in
      // The count it clears; a damaged file's reason says why it was cleared.
      var failures = 0
      var why = reason
      switch load(from: directory) {
      case .intact(let record): failures = record.failures
      case .damaged: why = why.map { $0 + ",damaged-attempts-file" } ?? "damaged-attempts-file"
      }
      let entry = AuditEntry(event: .attemptsReset, failures: failures, reason: why, wallSeconds: WallClock.seconds())
      try AuditLog.append(entry, to: directory)
      try save(.clean, to: directory)
    }
  }

  /// Replaces the attempts file crash-safely. The caller holds the directory's lock.
  ///
  /// - Throws: `VaultError.systemCall`.
  public static func save(_ record: AttemptRecord, to directory: borrowing StateDirectory) throws(VaultError) {
    try directory.write(name, encode(record))
  }
}

/// What the attempts file says.
public enum AttemptsState: Equatable {
  /// A record that passed every check.
  case intact(AttemptRecord)
  /// Missing, unreadable, of the wrong kind or owner, truncated or changed: fail closed.
  case damaged(problem: String)

  /// The record to act on: a damaged file could have meant any count, so it means the
  /// strictest, `table.permanentAfter` failures (locked until `reset-attempts`).
  public func record(failingClosedWith table: ThrottleTable) -> AttemptRecord {
    switch self {
    case .intact(let record): return record
    case .damaged: return AttemptRecord(failures: table.permanentAfter, lastFailureWallSeconds: 0, recentWrong: [])
    }
  }
}
