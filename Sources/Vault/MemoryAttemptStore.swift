import LockEvents
import PatternCore

/// A copy of a state directory taken once (under its lock), judged against in memory:
/// `replay --state-dir` uses it, so that a recording's made-up clock can neither lift
/// nor shorten a real lockout and no replayed guess is ever saved.
public final class MemoryAttemptStore: AttemptStore {
  private let pattern: Result<EnrolledPattern, VaultError>
  private var attempts: AttemptsState
  private var patternCheck: PatternCheck?
  private let credentials: Result<CredentialFile, VaultError>
  public let attemptsPath: String

  /// Copies the pattern, the other credentials and the attempts record of `directory`. No lock is taken:
  /// every write there is an atomic rename, so each file is read whole, old or new, and
  /// a read-only copy of a state directory replays too.
  public init(copying directory: borrowing StateDirectory) {
    do throws(VaultError) {
      pattern = .success(try EnrolledPattern.load(from: directory))
    } catch {
      pattern = .failure(error)
    }
    attempts = AttemptsFile.load(from: directory)
    patternCheck = PatternCheck.load(from: directory)
    do throws(VaultError) {
      credentials = .success(try CredentialFile.load(from: directory))
    } catch {
      credentials = .failure(error)
    }
    attemptsPath = directory.pathOf(AttemptsFile.name)
  }

  public func beginAttempt() throws(VaultError) {}

  public func endAttempt() {}

  public func loadPattern() throws(VaultError) -> EnrolledPattern {
    switch pattern {
    case .success(let enrolled): return enrolled
    case .failure(let error): throw error
    }
  }

  public func loadCredentials() throws(VaultError) -> CredentialFile {
    switch credentials {
    case .success(let file): return file
    case .failure(let error): throw error
    }
  }

  public func loadAttempts() -> AttemptsState { attempts }

  public func saveAttempts(_ record: AttemptRecord) throws(VaultError) { attempts = .intact(record) }

  public func appendAudit(_ entry: AuditEntry) throws(VaultError) {}

  public func loadPatternCheck() -> PatternCheck? { patternCheck }

  public func savePatternCheck(_ check: PatternCheck) throws(VaultError) { patternCheck = check }
}
