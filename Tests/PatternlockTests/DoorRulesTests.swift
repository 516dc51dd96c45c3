@testable import LockProgram
import Vault
import XCTest

/// What the door's inputs mean: a door opened after a release is let open, any other
/// opening is forced; open too long is reported once, and the closing after a report.
final class DoorRulesTests: XCTestCase {
  let second: UInt64 = 1_000_000

  func rules(strike: Int? = 500) -> DoorRules { DoorRules(heldOpenSeconds: 30, strikeMilliseconds: strike) }

  func testAnOpeningAfterARelease() {
    var door = rules()
    XCTAssertEqual(door.start(open: false, at: 0), DoorRules.Outcome())
    door.strikeReleased(at: 100 * second)
    let opened = door.sensor(open: true, at: 105 * second)
    XCTAssertEqual(opened, DoorRules.Outcome(armTimer: 30 * second), "let open within the pulse and the grace")
    XCTAssertEqual(door.sensor(open: false, at: 110 * second), DoorRules.Outcome(armTimer: 0), "a closing after nothing reported is quiet")
  }

  func testAnOpeningPastTheGraceIsForcedAndItsClosingLogged() {
    var door = rules()
    _ = door.start(open: false, at: 0)
    door.strikeReleased(at: 100 * second)
    XCTAssertEqual(door.sensor(open: true, at: 111 * second), DoorRules.Outcome(event: .doorForced, armTimer: 30 * second))
    XCTAssertEqual(door.sensor(open: false, at: 112 * second), DoorRules.Outcome(event: .doorClosed, armTimer: 0))
  }

  func testOneReleaseLetsTheDoorOpenOnce() {
    var door = rules()
    _ = door.start(open: false, at: 0)
    door.strikeReleased(at: 10 * second)
    _ = door.sensor(open: true, at: 11 * second)
    _ = door.sensor(open: false, at: 12 * second)
    XCTAssertEqual(door.sensor(open: true, at: 13 * second).event, .doorForced, "the grant was used by the first opening")
  }

  func testHeldOpenIsReportedOnceWhenTheTimeIsUp() {
    var door = rules()
    _ = door.start(open: false, at: 0)
    door.strikeReleased(at: 0)
    _ = door.sensor(open: true, at: 1 * second)
    XCTAssertEqual(door.timerFired(at: 20 * second), DoorRules.Outcome(armTimer: 11 * second), "early: armed for the rest")
    XCTAssertEqual(door.timerFired(at: 31 * second), DoorRules.Outcome(event: .doorHeldOpen, reason: "30"))
    XCTAssertEqual(door.sensor(open: false, at: 40 * second).event, .doorClosed)
    XCTAssertEqual(door.timerFired(at: 50 * second), DoorRules.Outcome(), "a timer after the closing says nothing")
  }

  func testADoorOpenAtStartIsTimedButNotForced() {
    var door = rules()
    XCTAssertEqual(door.start(open: true, at: 5 * second), DoorRules.Outcome(armTimer: 30 * second))
    XCTAssertEqual(door.timerFired(at: 35 * second).event, .doorHeldOpen)
  }

  func testTheExitButtonReleasesTheStrikeOncePerPress() {
    var door = rules()
    _ = door.start(open: false, at: 0)
    XCTAssertEqual(door.button(pressed: true, edges: 1, at: second), DoorRules.Outcome(event: .exitButton, releaseStrike: true))
    XCTAssertEqual(door.button(pressed: true, edges: 0, at: 2 * second), DoorRules.Outcome(), "held: no repeat")
    XCTAssertEqual(door.button(pressed: false, edges: 1, at: 3 * second), DoorRules.Outcome())
    XCTAssertEqual(door.sensor(open: true, at: 4 * second).event, nil, "the press let the door open")
  }

  func testAPressAndReleaseReadTogetherIsAPress() {
    var door = rules()
    XCTAssertEqual(door.button(pressed: false, edges: 2, at: second), DoorRules.Outcome(event: .exitButton, releaseStrike: true))
  }

  func testWithoutAStrikeThePressIsLoggedAndOpensNothing() {
    var door = rules(strike: nil)
    XCTAssertEqual(door.button(pressed: true, edges: 1, at: second), DoorRules.Outcome(event: .exitButton, reason: "no-strike"))
    XCTAssertEqual(door.sensor(open: true, at: 2 * second).event, .doorForced)
  }
}
