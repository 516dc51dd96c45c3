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

  /// The descriptor that becomes readable when an answer left pending by `judge`
  /// (`Judgement.pending`) has come; -1 for a judge that always answers at once.
  var answerDescriptor: Int32 { get }

  /// The pending answer, once it has come; at or after `due` (its time limit), a
  /// refusal that judged nothing; nil while it may still come.
  mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement?

  /// Whether the question the lock answers went away by `now` while no pattern was out
  /// (a password request answered elsewhere or expired): asked when `answerDescriptor`
  /// is ready with nothing awaited. True ends the lock as an unlock does, without a
  /// verdict; the command that made the judge asks it why.
  mutating func isWithdrawn(at now: UInt64) -> Bool

  /// Escape with nothing to clear at `now`: a judge that answers someone else's question
  /// gives it up (the password agent tells the asker no answer will come) and returns
  /// true, which ends the lock as `isWithdrawn` does; the others keep the lock up.
  mutating func cancel(at now: UInt64) -> Bool
}

extension PatternJudge where Self: ~Copyable {
  /// Judges that keep no record never fail to write one.
  public mutating func retryStorage(at now: UInt64) -> StorageRetry { .recorded(then: .none) }

  /// Judges that answer at once leave nothing pending.
  public var answerDescriptor: Int32 { -1 }

  public mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
    LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
  }

  /// Judges that answer a question of their own never see it withdrawn.
  public mutating func isWithdrawn(at now: UInt64) -> Bool { false }

  /// A lock's own question is never given up: Escape only clears.
  public mutating func cancel(at now: UInt64) -> Bool { false }
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
