import LockEvents
import PatternCore

/// Where an `UnlockSession` finds the pattern and keeps the attempts record: the state
/// directory itself (`DirectoryAttemptStore`: `run`, `check`) or a copy in memory
/// (`MemoryAttemptStore`: `replay --state-dir`, which must never change real state).
///
/// Class-bound so that the session can hold either behind one existential, which
/// Embedded Swift allows only for class-bound protocols.
public protocol AttemptStore: AnyObject {
  /// The attempts file's path, for messages.
  var attemptsPath: String { get }
  /// Starts one attempt: from here to `endAttempt` no other process reads or writes
  /// the record. Throws when that cannot be had; the attempt is then not judged.
  func beginAttempt() throws(VaultError)
  /// Ends the attempt begun last.
  func endAttempt()
  /// The enrolled pattern as stored now.
  func loadPattern() throws(VaultError) -> EnrolledPattern
  /// The credentials besides the owner's, as stored now.
  func loadCredentials() throws(VaultError) -> CredentialFile
  /// The attempts record as stored now.
  func loadAttempts() -> AttemptsState
  /// Stores the record durably before returning.
  func saveAttempts(_ record: AttemptRecord) throws(VaultError)
  /// Appends an entry to the audit log durably before returning (a copy in memory
  /// keeps no log: a replay's guesses are nobody's attempts).
  func appendAudit(_ entry: AuditEntry) throws(VaultError)
  /// What the last unlock learnt of the owner's pattern, nil when nothing yet.
  func loadPatternCheck() -> PatternCheck?
  /// Stores what an unlock learnt of the owner's pattern.
  func savePatternCheck(_ check: PatternCheck) throws(VaultError)
}
