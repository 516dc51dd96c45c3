import PatternCore
import Scene
import XCTest

/// Dimming after a time without input (`dim-after-s`): before blanking, the picture
/// kept, and the touch that brightens a dimmed screen counts as input, as on a phone.
final class IdleDimmingTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions())
  private let second: UInt64 = 1_000_000
  private func touch(_ kind: TouchEvent.Kind, _ dot: Int, at t: UInt64) -> TouchEvent {
    TouchEvent(kind: kind, slot: 0, position: layout.centre(of: dot), timeMicroseconds: t)
  }

  func testTheScreenDimsAfterItsTimeThenBlanks() {
    var c = LockScreenController(layout: layout, idleBlankMicroseconds: 30 * second, dimAfterMicroseconds: 10 * second)
    c.advance(to: 0)
    XCTAssertEqual(c.nextChange(after: 0), 10 * second, "the loop wakes to dim")
    c.advance(to: 10 * second - 1)
    XCTAssertFalse(c.isDimmed)
    XCTAssertFalse(c.state.dimmed)
    c.advance(to: 10 * second)
    XCTAssertTrue(c.isDimmed)
    XCTAssertTrue(c.state.dimmed)
    XCTAssertFalse(c.state.blanked)
    XCTAssertEqual(c.nextChange(after: 10 * second), 30 * second, "and then to blank")
    c.advance(to: 30 * second)
    XCTAssertTrue(c.state.blanked)
    XCTAssertFalse(c.state.dimmed, "a blank screen is not also dimmed")
  }

  func testTheTouchThatBrightensADimmedScreenDraws() {
    var c = LockScreenController(layout: layout, idleBlankMicroseconds: 30 * second, dimAfterMicroseconds: 10 * second)
    c.advance(to: 0)
    c.advance(to: 12 * second)
    XCTAssertTrue(c.state.dimmed)
    XCTAssertNil(c.handle(touch(.down, 1, at: 13 * second)))
    XCTAssertFalse(c.state.dimmed)
    XCTAssertEqual(c.state.trail, DotSequence([1]), "the touch was input, not only a wake")
    // A finger resting keeps it bright; lifting starts the dim time again.
    c.advance(to: 40 * second)
    XCTAssertFalse(c.state.dimmed)
    _ = c.handle(touch(.up, 1, at: 41 * second))
    XCTAssertEqual(c.nextChange(after: 41 * second), 51 * second)
  }

  func testActivityAndKeysBrightenItToo() {
    var c = LockScreenController(layout: layout, dimAfterMicroseconds: 5 * second)
    c.advance(to: 0)
    c.advance(to: 5 * second)
    XCTAssertTrue(c.state.dimmed)
    c.noteActivity(at: 6 * second)
    XCTAssertFalse(c.state.dimmed, "someone at the door")
    XCTAssertEqual(c.nextChange(after: 6 * second), 11 * second)
    c.advance(to: 11 * second)
    XCTAssertTrue(c.state.dimmed)
    c.keyDot(5, at: 12 * second)
    XCTAssertFalse(c.state.dimmed)
    XCTAssertEqual(c.state.trail, DotSequence([5]), "the key counts")
  }

  /// The configuration refuses it, but the controller alone never dims at or after
  /// the blank time either: a blank screen is not dimmed.
  func testADimTimeAtOrPastTheBlankTimeNeverDims() {
    for dim in [20 * second, 30 * second] {
      var c = LockScreenController(layout: layout, idleBlankMicroseconds: 20 * second, dimAfterMicroseconds: dim)
      c.advance(to: 0)
      XCTAssertEqual(c.nextChange(after: 0), 20 * second)
      c.advance(to: 20 * second)
      XCTAssertTrue(c.state.blanked)
      XCTAssertFalse(c.state.dimmed)
      c.advance(to: 60 * second)
      XCTAssertFalse(c.isDimmed)
      XCTAssertNil(c.nextChange(after: 60 * second), "nothing to wake for while blank")
    }
  }

  func testWithoutADimTimeNothingDims() {
    var c = LockScreenController(layout: layout)
    c.advance(to: 0)
    XCTAssertNil(c.nextChange(after: 0))
    c.advance(to: 3_600 * second)
    XCTAssertFalse(c.state.dimmed)
  }
}
