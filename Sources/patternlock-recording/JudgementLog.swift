import PatternCore
import Scene
import Screen

/// A judge that passes every call to `inner` and keeps what it answered, so a replay
/// can draw its pictures in a second play without judging twice (a vault attempt is
/// counted: it cannot be made again).
struct JudgementLog<Inner: PatternJudge & ~Copyable>: PatternJudge, ~Copyable {
  var inner: Inner
  private(set) var judgements: [LockScreenController.Judgement] = []
  private(set) var retries: [StorageRetry] = []

  init(_ inner: consuming Inner) { self.inner = inner }

  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let judgement = inner.judge(outcome, at: now)
    judgements.append(judgement)
    return judgement
  }

  mutating func retryStorage(at now: UInt64) -> StorageRetry {
    let retry = inner.retryStorage(at: now)
    retries.append(retry)
    return retry
  }

  /// A judge that answers the same again, in the same order.
  var replay: JudgementReplay { JudgementReplay(judgements: judgements, retries: retries) }
}

/// Answers what a `JudgementLog` recorded, in order: the second play of a recording
/// meets the same patterns at the same moments, since it steps the same events.
struct JudgementReplay: PatternJudge {
  private let judgements: [LockScreenController.Judgement]
  private let retries: [StorageRetry]
  private var nextJudgement = 0
  private var nextRetry = 0

  init(judgements: [LockScreenController.Judgement], retries: [StorageRetry]) {
    self.judgements = judgements
    self.retries = retries
  }

  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    precondition(nextJudgement < judgements.count, "the second play met a pattern the first did not")
    defer { nextJudgement += 1 }
    return judgements[nextJudgement]
  }

  mutating func retryStorage(at now: UInt64) -> StorageRetry {
    precondition(nextRetry < retries.count, "the second play retried the storage more often than the first")
    defer { nextRetry += 1 }
    return retries[nextRetry]
  }
}
