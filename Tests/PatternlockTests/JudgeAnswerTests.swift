import PatternCore
import Scene
import Vault
@testable import LockProgram
import XCTest

/// The judge's wire format: what `judge` writes for each kind of verdict and refusal,
/// that the lock reads back exactly that, and what the screen shows for it.
final class JudgeAnswerTests: XCTestCase {
  func judged(_ decision: UnlockDecision, triesLeft: Int? = nil) -> JudgedAttempt {
    JudgedAttempt(decision: decision, failures: decision.failures ?? 0, triesLeft: triesLeft)
  }

  func testVerdictsCarryCheckKeysAndWhatALockClientShows() {
    XCTAssertEqual(JudgeAnswer(judged(UnlockDecision(result: .unlocked))).jsonLine, "{\"result\":\"unlocked\"}")
    XCTAssertEqual(
      JudgeAnswer(judged(UnlockDecision(result: .wrong, failures: 3), triesLeft: 2)).jsonLine,
      "{\"result\":\"wrong\",\"failures\":3,\"tries_left\":2}")
    XCTAssertEqual(
      JudgeAnswer(judged(UnlockDecision(result: .wrong, lockout: .seconds(60), failures: 5))).jsonLine,
      "{\"result\":\"wrong\",\"retry_in_s\":60,\"failures\":5}", "the try that starts a lockout has none left before it")
    XCTAssertEqual(
      JudgeAnswer(judged(UnlockDecision(result: .lockedOut, lockout: .permanent))).jsonLine,
      "{\"result\":\"locked-out\",\"until_reset\":true}")
  }

  func testRefusalsNameWhyNothingWasJudged() {
    XCTAssertEqual(
      JudgeAnswer(refusal: .notRecorded, reason: "state busy").jsonLine,
      "{\"result\":\"not-judged\",\"reason\":\"state busy\"}")
    XCTAssertEqual(JudgeAnswer(refusal: .badInput, reason: "x").result.name, "bad-request")
    XCTAssertEqual(JudgeAnswer(refusal: .notEnrolled, reason: "x").result.name, "not-enrolled")
    XCTAssertEqual(JudgeAnswer(refusal: .failure, reason: "x").result.name, "error")
  }

  /// Whatever one end writes, the other reads back as the same answer.
  func testEveryAnswerWrittenIsReadBackTheSame() {
    let answers: [JudgeAnswer] =
      JudgeAnswer.Result.allCases.map { JudgeAnswer(result: $0) } + [
        JudgeAnswer(judged(UnlockDecision(result: .wrong, failures: 3), triesLeft: 2)),
        JudgeAnswer(judged(UnlockDecision(result: .wrong, lockout: .seconds(60), failures: 5))),
        JudgeAnswer(judged(UnlockDecision(result: .lockedOut, lockout: .permanent))),
        JudgeAnswer(refusal: .notRecorded, reason: "state \"busy\"\nand a\ttab \\ too"),
      ]
    for answer in answers {
      XCTAssertEqual(JudgeAnswer.parse(Array((answer.jsonLine + "\n").utf8)), answer, answer.jsonLine)
      XCTAssertEqual(JudgeAnswer.parse(Array(answer.jsonLine.utf8)), answer, "the newline is optional")
    }
  }

  func testAnythingElseIsNoAnswer() {
    for text in [
      "", "{", "{}", "{\"result\":1}", "{\"result\":\"unlocked\",\"extra\":\"x\"}", "{\"result\":\"unlocked\"} x",
      "unlocked", "{\"result\":\"Unlocked\"}", "{\"result\":\"wrong\",\"tries_left\":\"x\"}",
      "{\"result\":\"locked-out\",\"until_reset\":false}", "{\"result\":\"wrong\",\"retry_in_s\":-1}",
      "{\"result\":\"unlocked\",\"result\":\"wrong\"}", "{\"result\":\"unlocked\"}\n\n",
    ] {
      XCTAssertNil(JudgeAnswer.parse(Array(text.utf8)), text)
    }
  }

  func testOnlyUnlockedUnlocks() {
    for result in JudgeAnswer.Result.allCases {
      XCTAssertEqual(JudgeAnswer(result: result).judgement(minimumDots: 4).unlocks, result == .unlocked, result.name)
    }
  }

  func testLockoutsAndTriesLeftReachTheScreen() {
    let wrong = JudgeAnswer(result: .wrong, triesLeft: 2).judgement(minimumDots: 4)
    XCTAssertEqual(wrong.verdict, .rejected(.wrongPattern(triesLeft: 2)))
    let early = JudgeAnswer(result: .wrong, triesLeft: 4).judgement(minimumDots: 4)
    XCTAssertEqual(early.verdict, .rejected(.wrongPattern), "the tries left are shown from 3 on")
    let lockout = JudgeAnswer(result: .wrong, retryInSeconds: 30).judgement(minimumDots: 4)
    XCTAssertEqual(lockout.lockout, .seconds(30))
    let forever = JudgeAnswer(result: .lockedOut, untilReset: true).judgement(minimumDots: 4)
    XCTAssertEqual(forever.lockout, .permanent)
    XCTAssertEqual(forever.verdict, .rejected(.lockedUntilReset))
    let short = JudgeAnswer(result: .tooShort).judgement(minimumDots: 5)
    XCTAssertEqual(short.verdict, .rejected(.tooShort(minimumDots: 5)))
  }
}
