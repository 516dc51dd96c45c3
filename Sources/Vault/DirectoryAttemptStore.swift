import LockEvents
import PatternCore

/// The state directory as an `AttemptStore`: each attempt holds the directory's lock
/// from reading the record to writing it back, and every write is synced.
public final class DirectoryAttemptStore: AttemptStore {
  private let directory: StateDirectory
  private var held: StateLock?
  private let lockWaitMicroseconds: UInt64

  /// - Parameter lockWaitMicroseconds: how long an attempt waits for another process's lock.
  public init(_ directory: consuming StateDirectory, lockWaitMicroseconds: UInt64 = StateLock.defaultWaitMicroseconds) {
    self.directory = directory
    self.lockWaitMicroseconds = lockWaitMicroseconds
  }

  public var attemptsPath: String { directory.pathOf(AttemptsFile.name) }

  public func beginAttempt() throws(VaultError) {
    held = nil
    held = try directory.lockExclusively(waitMicroseconds: lockWaitMicroseconds)
  }

  public func endAttempt() { held = nil }

  public func loadPattern() throws(VaultError) -> EnrolledPattern { try EnrolledPattern.load(from: directory) }

  public func loadCredentials() throws(VaultError) -> CredentialFile { try CredentialFile.load(from: directory) }

  public func loadAttempts() -> AttemptsState { AttemptsFile.load(from: directory) }

  public func saveAttempts(_ record: AttemptRecord) throws(VaultError) { try AttemptsFile.save(record, to: directory) }

  public func appendAudit(_ entry: AuditEntry) throws(VaultError) { try AuditLog.append(entry, to: directory) }

  public func loadPatternCheck() -> PatternCheck? { PatternCheck.load(from: directory) }

  public func savePatternCheck(_ check: PatternCheck) throws(VaultError) { try check.save(to: directory) }
}
