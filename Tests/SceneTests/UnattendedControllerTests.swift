import PatternCore
import Scene
import XCTest

/// The unattended timeout and the power button's long press, on the controller's clock.
final class UnattendedControllerTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions(powerButton: true))
  private let s: UInt64 = 1_000_000

  private func touch(_ kind: TouchEvent.Kind, at p: Point, _ t: UInt64, slot: Int32 = 0) -> TouchEvent {
    TouchEvent(kind: kind, slot: slot, position: p, timeMicroseconds: t)
  }
  private func dot(_ n: Int) -> Point { layout.centre(of: n) }
  private var button: Point {
    let r = layout.powerButtonRect
    return Point(x: Fixed16(r.x + r.width / 2), y: Fixed16(r.y + r.height / 2))
  }

  // MARK: Timeout

  func testTimeoutPowersOffOnceAfterTheQuietTimeAndWakesTheLoopThen() {
    var c = LockScreenController(layout: layout, timeoutMicroseconds: 60 * s, timeoutAction: .poweroff)
    c.advance(to: 0)
    XCTAssertEqual(c.nextChange(after: 0), 60 * s)
    c.advance(to: 59 * s)
    XCTAssertNil(c.requestedPowerAction)
    c.advance(to: 60 * s)
    XCTAssertEqual(c.requestedPowerAction, .poweroff)
    XCTAssertEqual(c.timeoutsExpired, 1)
    XCTAssertEqual(c.state.prompt, .poweringOff)
    XCTAssertNil(c.nextChange(after: 60 * s), "nothing more happens by itself")
    XCTAssertNil(c.handle(touch(.down, at: dot(1), 61 * s)))
    XCTAssertTrue(c.state.trail.isEmpty, "input is ignored once it is asked")
    c.advance(to: 200 * s)
    XCTAssertEqual(c.timeoutsExpired, 1, "runs once")
  }

  func testInputResetsTheTimeout() {
    var c = LockScreenController(layout: layout, timeoutMicroseconds: 60 * s, timeoutAction: .reboot)
    c.advance(to: 0)
    _ = c.handle(touch(.down, at: dot(1), 50 * s))
    _ = c.handle(touch(.up, at: dot(1), 51 * s))
    XCTAssertEqual(c.nextChange(after: 51 * s).map { min($0, 111 * s) }, 111 * s)
    c.advance(to: 110 * s)
    XCTAssertNil(c.requestedPowerAction)
    c.advance(to: 111 * s)
    XCTAssertEqual(c.requestedPowerAction, .reboot)
    XCTAssertEqual(c.state.prompt, .restarting)
  }

  func testTimeoutKeepsCountingWhileBlankedAndShowsItsPicture() {
    var c = LockScreenController(
      layout: layout, idleBlankMicroseconds: 10 * s, timeoutMicroseconds: 60 * s, timeoutAction: .poweroff)
    c.advance(to: 0)
    XCTAssertEqual(c.nextChange(after: 0), 10 * s)
    c.advance(to: 10 * s)
    XCTAssertTrue(c.state.blanked)
    XCTAssertEqual(c.nextChange(after: 10 * s), 60 * s, "the blank screen still wakes for the timeout")
    c.advance(to: 60 * s)
    XCTAssertEqual(c.requestedPowerAction, .poweroff)
    XCTAssertFalse(c.state.blanked, "the last picture says what comes")
  }

  func testBlankActionBlanksAndTheWakingTouchArmsItAgain() {
    var c = LockScreenController(layout: layout, timeoutMicroseconds: 30 * s, timeoutAction: .blank)
    c.advance(to: 0)
    c.advance(to: 30 * s)
    XCTAssertTrue(c.state.blanked)
    XCTAssertNil(c.requestedPowerAction)
    XCTAssertEqual(c.timeoutsExpired, 1)
    XCTAssertNil(c.nextChange(after: 30 * s), "spent until input comes")
    XCTAssertNil(c.handle(touch(.down, at: dot(5), 40 * s)))
    XCTAssertFalse(c.state.blanked)
    _ = c.handle(touch(.up, at: dot(5), 40 * s + 1))
    XCTAssertEqual(c.nextChange(after: 41 * s), 70 * s + 1)
    c.advance(to: 70 * s + 1)
    XCTAssertEqual(c.timeoutsExpired, 2)
  }

  func testNoneAndZeroNeverTimeOut() {
    for c0 in [
      LockScreenController(layout: layout, timeoutMicroseconds: 5 * s, timeoutAction: .none),
      LockScreenController(layout: layout, timeoutMicroseconds: nil, timeoutAction: .poweroff),
    ] {
      var c = c0
      c.advance(to: 0)
      XCTAssertNil(c.nextChange(after: 0))
      c.advance(to: 1000 * s)
      XCTAssertNil(c.requestedPowerAction)
      XCTAssertEqual(c.timeoutsExpired, 0)
    }
  }

  // MARK: Power button

  func testHoldingThePowerButtonLongEnoughPowersOffWithAFillingRing() {
    var c = LockScreenController(layout: layout)
    c.advance(to: 0)
    XCTAssertNil(c.handle(touch(.down, at: button, 1 * s)))
    XCTAssertEqual(c.state.powerPress, 0)
    XCTAssertTrue(c.state.trail.isEmpty)
    let first = c.nextChange(after: 1 * s)!
    XCTAssertGreaterThan(first, 1 * s)
    XCTAssertLessThanOrEqual(first, 1 * s + LockScreenController.powerPressMicroseconds / UInt64(LockScreenController.powerPressSteps) + 1)
    c.advance(to: 2 * s)
    XCTAssertEqual(c.state.powerPress, LockScreenController.powerPressSteps / 2)
    XCTAssertNil(c.requestedPowerAction)
    // The loop wakes step by step until the press completes.
    var t = 2 * s
    while let next = c.nextChange(after: t), c.requestedPowerAction == nil {
      XCTAssertGreaterThan(next, t)
      t = next
      c.advance(to: t)
    }
    XCTAssertEqual(t, 3 * s)
    XCTAssertEqual(c.requestedPowerAction, .poweroff)
    XCTAssertEqual(c.state.prompt, .poweringOff)
  }

  func testReleasingEarlyOrSlidingOffDoesNothingAndDrawsNoPattern() {
    var c = LockScreenController(layout: layout)
    c.advance(to: 0)
    _ = c.handle(touch(.down, at: button, 1 * s))
    _ = c.handle(touch(.up, at: button, 2 * s))
    XCTAssertNil(c.state.powerPress)
    c.advance(to: 10 * s)
    XCTAssertNil(c.requestedPowerAction)

    // Starting on the button and sliding across the grid joins nothing.
    _ = c.handle(touch(.down, at: button, 11 * s))
    for (i, n) in [9, 8, 7, 4, 1].enumerated() { XCTAssertNil(c.handle(touch(.motion, at: dot(n), 11 * s + UInt64(i + 1) * 1000))) }
    XCTAssertNil(c.state.powerPress, "sliding off voids the press")
    XCTAssertTrue(c.state.trail.isEmpty, "a press that starts on the button never draws")
    c.advance(to: 20 * s)
    XCTAssertNil(c.handle(touch(.up, at: dot(1), 20 * s)))
    XCTAssertNil(c.requestedPowerAction)
  }

  func testAStrokePassingOverTheButtonIsJustAStroke() {
    // The same stroke on a screen with and one without the button gives the same pattern.
    let plain = try! GridLayout(LayoutOptions())
    var outcomes: [GestureOutcome?] = []
    for l in [layout, plain] {
      var c = LockScreenController(layout: l)
      c.advance(to: 0)
      _ = c.handle(touch(.down, at: dot(1), 1 * s))
      _ = c.handle(touch(.motion, at: dot(2), 1 * s + 1000))
      _ = c.handle(touch(.motion, at: button, 1 * s + 2000))
      XCTAssertNil(c.state.powerPress)
      c.advance(to: 5 * s)
      XCTAssertNil(c.requestedPowerAction)
      _ = c.handle(touch(.motion, at: dot(3), 5 * s))
      outcomes.append(c.handle(touch(.up, at: dot(3), 5 * s + 2000)))
    }
    XCTAssertNotNil(outcomes[0])
    XCTAssertEqual(outcomes[0]?.dots, outcomes[1]?.dots)
  }

  func testWithoutTheButtonItsCornerIsNothing() {
    let plain = try! GridLayout(LayoutOptions())
    var c = LockScreenController(layout: plain)
    c.advance(to: 0)
    _ = c.handle(touch(.down, at: button, 1 * s))
    XCTAssertNil(c.state.powerPress)
    c.advance(to: 10 * s)
    XCTAssertNil(c.requestedPowerAction)
  }
}
