import PatternCore
import Scene
import Screen

/// What judges `run`'s patterns: the vault, enrolment (`enroll`, `--enroll-first`),
/// the development pattern, or (`session-lock`) the judge's socket. One of them is set.
///
/// Optionals in a struct rather than an enum with payloads, because the gates are
/// non-copyable and their payloads must be mutated in place.
struct RunJudge: PatternJudge, ~Copyable {
  var vault: VaultGate?
  var enrolment: EnrollmentGate?
  var development: DevelopmentJudge?
  /// `session-lock`'s judge over patternlock-judge.socket.
  var socket: SocketJudge?

  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    if enrolment != nil { return enrolment!.judge(outcome, at: now) }
    if development != nil { return development!.judge(outcome, at: now) }
    if socket != nil { return socket!.judge(outcome, at: now) }
    return vault!.judge(outcome, at: now)
  }

  mutating func retryStorage(at now: UInt64) -> StorageRetry {
    vault == nil ? .recorded(then: .none) : vault!.retryStorage(at: now)
  }
}
