import PatternCore
import Scene

/// Decides each finished pattern: the vault (`run`, `check`-like judging against the
/// stored hash), the development pattern (`--pattern`), enrolment, a replay's plain
/// comparison. The lock screen's stepper calls it; nothing else judges.
///
/// Used only as a generic constraint, so every judge is specialised into the loop
/// (Embedded Swift has no non-class existentials).
public protocol PatternJudge: ~Copyable {
  /// Judges `outcome`, finished at `now` (the loop's clock, CLOCK_MONOTONIC or the
  /// recording's microseconds). Called once per pattern: a vault attempt is counted.
  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement

  /// After an attempt could not be recorded (the screen says "Storage error"), tries
  /// the storage again.
  mutating func retryStorage(at now: UInt64) -> StorageRetry
}

extension PatternJudge where Self: ~Copyable {
  /// Judges that keep no record never fail to write one.
  public mutating func retryStorage(at now: UInt64) -> StorageRetry { .recorded(then: .none) }
}

/// What trying the storage again found.
public enum StorageRetry: Equatable, Sendable {
  /// How long the screen waits before trying the storage again.
  public static let intervalMicroseconds: UInt64 = 2_000_000

  /// It still cannot be written: the screen stays locked and tries again later.
  case stillFailing
  /// It was written: the prompt returns, or `then`, the lockout the recorded attempts
  /// impose.
  case recorded(then: Lockout)
}
