import PatternCore
import Scene
@testable import patternlock
import XCTest

/// session-lock's judge over the socket when there is no judge to ask: it stays locked.
/// (What it reads from a judge that answers is in JudgeAnswerTests; the whole round trip
/// through patternlock-judge.socket in JudgeCommandTests and the Wayland test.)
final class SocketJudgeTests: XCTestCase {
  func testAJudgeThatCannotBeReachedLeavesItLocked() {
    var judge = SocketJudge(path: "/nonexistent/judge.sock", minimumDots: 4)
    let judgement = judge.judge(GestureOutcome(dots: DotSequence([1, 2, 3, 6]), result: .complete, timeMicroseconds: 0), at: 0)
    XCTAssertFalse(judgement.unlocks)
    XCTAssertEqual(judgement.verdict, .rejected(.busyTryAgain))
  }
}
