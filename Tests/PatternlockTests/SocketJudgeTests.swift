import PatternCore
import Scene
@testable import patternlock
import XCTest

/// The judge's answer read back by session-lock, and what the screen shows for it:
/// only `unlocked` unlocks.
final class SocketJudgeTests: XCTestCase {
  func reply(_ text: String) -> JudgeReply? { JudgeReply.parse(Array(text.utf8)) }

  func testEveryAnswerTheJudgeWritesIsRead() {
    XCTAssertEqual(reply("{\"result\":\"unlocked\"}\n"), JudgeReply(result: "unlocked"))
    XCTAssertEqual(
      reply("{\"result\":\"wrong\",\"failures\":3,\"tries_left\":2}"), JudgeReply(result: "wrong", triesLeft: 2))
    XCTAssertEqual(
      reply("{\"result\":\"wrong\",\"retry_in_s\":60,\"failures\":5}"), JudgeReply(result: "wrong", retryInSeconds: 60))
    XCTAssertEqual(reply("{\"result\":\"locked-out\",\"until_reset\":true}"), JudgeReply(result: "locked-out", untilReset: true))
    XCTAssertEqual(
      reply("{\"result\":\"not-judged\",\"reason\":\"state \\\"busy\\\"\"}"), JudgeReply(result: "not-judged", reason: "state \"busy\""))
  }

  func testAnythingElseIsNoAnswer() {
    for text in ["", "{", "{}", "{\"result\":1}", "{\"result\":\"unlocked\",\"extra\":\"x\"}", "{\"result\":\"unlocked\"} x", "unlocked"] {
      XCTAssertNil(reply(text), text)
    }
  }

  func testOnlyUnlockedUnlocks() {
    for result in ["wrong", "too-short", "locked-out", "not-judged", "bad-request", "not-enrolled", "error", "Unlocked"] {
      XCTAssertFalse(SocketJudge.judgement(for: JudgeReply(result: result), minimumDots: 4).unlocks, result)
    }
    XCTAssertTrue(SocketJudge.judgement(for: JudgeReply(result: "unlocked"), minimumDots: 4).unlocks)
  }

  func testLockoutsAndTriesLeftReachTheScreen() {
    let wrong = SocketJudge.judgement(for: JudgeReply(result: "wrong", triesLeft: 2), minimumDots: 4)
    XCTAssertEqual(wrong.verdict, .rejected(.wrongPattern(triesLeft: 2)))
    let lockout = SocketJudge.judgement(for: JudgeReply(result: "wrong", retryInSeconds: 30), minimumDots: 4)
    XCTAssertEqual(lockout.lockout, .seconds(30))
    let forever = SocketJudge.judgement(for: JudgeReply(result: "locked-out", untilReset: true), minimumDots: 4)
    XCTAssertEqual(forever.lockout, .permanent)
    XCTAssertEqual(forever.verdict, .rejected(.lockedUntilReset))
  }

  func testAJudgeThatCannotBeReachedLeavesItLocked() {
    var judge = SocketJudge(path: "/nonexistent/judge.sock", minimumDots: 4)
    let judgement = judge.judge(GestureOutcome(dots: DotSequence([1, 2, 3, 6]), result: .complete, timeMicroseconds: 0), at: 0)
    XCTAssertFalse(judgement.unlocks)
    XCTAssertEqual(judgement.verdict, .rejected(.busyTryAgain))
  }
}
