import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// Someone at the door (its contact opening, its exit button) wakes a blank lock without
/// a touch: the output comes back on with the current picture, and the idle time starts
/// again from that moment.
final class ActivityWakeTests: XCTestCase {
  func testActivityWakesABlankScreenAndRestartsTheIdleTime() throws {
    let second: UInt64 = 1_000_000
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(idleBlankMicroseconds: 2 * second))
    var display = MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: true)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    var rules = LiveStepRules()
    rules.start(screen, at: 0)
    rules.timerFired(at: 0, screen: &screen, judge: &judge)
    _ = try screen.present(on: &display, at: 0)
    rules.timerFired(at: 2 * second, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isBlanked)
    _ = try screen.present(on: &display, at: 2 * second)
    XCTAssertTrue(display.isOutputOff)

    rules.activity(at: 5 * second, screen: &screen)
    XCTAssertFalse(screen.isBlanked, "the door woke it")
    XCTAssertEqual(rules.takeTimerDelay(), 2 * second, "the idle time runs again from the door's moment")
    XCTAssertTrue(rules.shouldPresent(screen, on: display))
    _ = try screen.present(on: &display, at: 5 * second)
    XCTAssertFalse(display.isOutputOff)
    XCTAssertEqual(display.switchedOn, 1)
    XCTAssertEqual(display.frame, screen.picture.frame, "the current picture, whole")

    rules.timerFired(at: 7 * second, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isBlanked, "and blanks again after the idle time")
  }

  func testActivityOnAScreenThatIsOnChangesNothingButTheIdleTime() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(idleBlankMicroseconds: 2_000_000))
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    screen.advance(to: 0, judge: &judge)
    let before = screen.controller.state
    screen.noteActivity(at: 1_500_000)
    XCTAssertEqual(screen.controller.state, before)
    screen.advance(to: 2_000_000, judge: &judge)
    XCTAssertFalse(screen.isBlanked, "blanking counts from the activity")
    screen.advance(to: 3_500_000, judge: &judge)
    XCTAssertTrue(screen.isBlanked)
  }
}
