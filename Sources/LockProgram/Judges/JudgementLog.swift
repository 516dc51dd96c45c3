import PatternCore
import Scene
import Screen

/// A judge that passes every call to `inner` and keeps what it answered, so a replay
/// can draw its pictures in a second play without judging twice (a vault attempt is
/// counted: it cannot be made again).
package struct JudgementLog<Inner: PatternJudge & ~Copyable>: PatternJudge, ~Copyable {
  package var inner: Inner
  private(set) var judgements: [LockScreenController.Judgement] = []
  private(set) var retries: [StorageRetry] = []

  package init(_ inner: consuming Inner) { self.inner = inner }

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let judgement = inner.judge(outcome, at: now)
    judgements.append(judgement)
    return judgement
  }

  package mutating func retryStorage(at now: UInt64) -> StorageRetry {
    let retry = inner.retryStorage(at: now)
    retries.append(retry)
    return retry
  }

  /// A judge that answers the same again, in the same order.
  package var replay: JudgementReplay { JudgementReplay(judgements: judgements, retries: retries) }
}

/// Answers what a `JudgementLog` recorded, in order: the second play of a recording
/// meets the same patterns at the same moments, since it steps the same events.
package struct JudgementReplay: PatternJudge {
  private let judgements: [LockScreenController.Judgement]
  private let retries: [StorageRetry]
  private var nextJudgement = 0
  private var nextRetry = 0

  package init(judgements: [LockScreenController.Judgement], retries: [StorageRetry]) {
    self.judgements = judgements
    self.retries = retries
  }

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    precondition(nextJudgement < judgements.count, "the second play met a pattern the first did not")
    defer { nextJudgement += 1 }
    return judgements[nextJudgement]
  }

  package mutating func retryStorage(at now: UInt64) -> StorageRetry {
    precondition(nextRetry < retries.count, "the second play retried the storage more often than the first")
    defer { nextRetry += 1 }
    return retries[nextRetry]
  }
}
