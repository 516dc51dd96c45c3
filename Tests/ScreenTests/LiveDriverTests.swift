import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// The live stepping rules on their own: nothing is presented and the lock does not end
/// while a flip is in flight, and the timer is armed for the screen's next change.
final class LiveDriverTests: XCTestCase {
  /// A memory display whose flips wait until `complete()`.
  struct SlowDisplay: Display {
    var memory: MemoryDisplay<XRGB8888>
    var isFlipPending = false
    typealias Pixel = XRGB8888
    typealias Failure = MemoryDisplay<XRGB8888>.Refused
    var width: Int { memory.width }
    var height: Int { memory.height }
    var pollDescriptor: Int32 { -1 }
    var hotplugDescriptor: Int32 { -1 }
    var isOutputOff: Bool { memory.isOutputOff }
    var canSwitchOff: Bool { false }
    mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
      isFlipPending = try memory.show(frame, damage: damage)
      return isFlipPending
    }
    mutating func completeFlip() throws(Failure) -> UInt64? {
      isFlipPending = false
      return 0
    }
    mutating func hotplug() throws(Failure) -> Bool { false }
    mutating func switchOff() throws(Failure) { try memory.switchOff() }
    mutating func switchOn(showing frame: [UInt8]) throws(Failure) { try memory.switchOn(showing: frame) }
  }

  func testAFlipInFlightHoldsThePresentAndTheEnd() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(feedbackMicroseconds: 100))
    var display = SlowDisplay(memory: MemoryDisplay<XRGB8888>(width: 800, height: 480))
    var driver = LiveDriver()
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    driver.start(screen, at: 0)
    XCTAssertNil(driver.takeTimerDelay(), "nothing changes by itself on a fresh screen without timeouts")
    XCTAssertTrue(driver.shouldPresent(screen, on: display))
    XCTAssertTrue(try screen.present(on: &display).presented)
    for n in [1, 2, 3, 6] { driver.receive(.key(.dot(n)), at: 10, screen: &screen, judge: &judge) }
    XCTAssertNotNil(driver.receive(.key(.submit), at: 20, screen: &screen, judge: &judge))
    XCTAssertEqual(driver.takeTimerDelay(), 100, "armed for the verdict's end")
    XCTAssertNil(driver.takeTimerDelay(), "taken once")
    XCTAssertFalse(driver.shouldPresent(screen, on: display), "a flip is in flight")
    driver.timerFired(at: 120, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isFinished)
    XCTAssertNil(driver.ending(of: screen, on: display), "the unlocked picture's flip has not completed")
    _ = try display.completeFlip()
    XCTAssertEqual(driver.ending(of: screen, on: display), .unlocked)
  }
}
