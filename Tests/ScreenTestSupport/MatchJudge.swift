import PatternCore
import Scene
import Screen

/// Unlocks on one pattern, refuses every other complete one and says nothing (no
/// output to count in allocation tests).
public struct MatchJudge: PatternJudge {
  public let expected: DotSequence
  public init(_ expected: DotSequence) { self.expected = expected }

  public mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    guard outcome.result == .complete else { return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: 4))) }
    let matches = outcome.dots == expected
    return LockScreenController.Judgement(verdict: matches ? .accepted(.unlocked) : .rejected(.wrongPattern), unlocks: matches)
  }
}
