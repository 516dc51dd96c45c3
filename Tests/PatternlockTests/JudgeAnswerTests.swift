import PatternCore
@testable import patternlock
import XCTest

/// The judge's answer line for each kind of verdict and refusal.
final class JudgeAnswerTests: XCTestCase {
  let android = ThrottleTable.android

  func testVerdictsCarryCheckKeysAndWhatALockClientShows() {
    XCTAssertEqual(JudgeAnswer(UnlockDecision(result: .unlocked), table: android).jsonLine, "{\"result\":\"unlocked\"}")
    XCTAssertEqual(
      JudgeAnswer(UnlockDecision(result: .wrong, failures: 3), table: android).jsonLine,
      "{\"result\":\"wrong\",\"failures\":3,\"tries_left\":2}")
    XCTAssertEqual(
      JudgeAnswer(UnlockDecision(result: .wrong, lockout: .seconds(60), failures: 5), table: android).jsonLine,
      "{\"result\":\"wrong\",\"retry_in_s\":60,\"failures\":5}", "the try that starts a lockout has none left before it")
    XCTAssertEqual(
      JudgeAnswer(UnlockDecision(result: .lockedOut, lockout: .permanent), table: android).jsonLine,
      "{\"result\":\"locked-out\",\"until_reset\":true}")
  }

  func testRefusalsNameWhyNothingWasJudged() {
    XCTAssertEqual(
      JudgeAnswer(refusal: .notRecorded, reason: "state busy").jsonLine,
      "{\"result\":\"not-judged\",\"reason\":\"state busy\"}")
    XCTAssertEqual(JudgeAnswer(refusal: .badInput, reason: "x").result, "bad-request")
    XCTAssertEqual(JudgeAnswer(refusal: .notEnrolled, reason: "x").result, "not-enrolled")
    XCTAssertEqual(JudgeAnswer(refusal: .failure, reason: "x").result, "error")
  }
}
