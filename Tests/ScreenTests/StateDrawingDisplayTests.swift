import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// A display that draws the lock's state itself (the session lock's outputs, each laid
/// out for its own size) is handed the state, never the panel's frame.
final class StateDrawingDisplayTests: XCTestCase {
  struct StateDisplay: Display {
    struct Never: DescribedError {
      var message: String { "never thrown" }
    }
    typealias Pixel = XRGB8888
    typealias Failure = Never
    var width: Int { 800 }
    var height: Int { 480 }
    var pollDescriptor: Int32 { -1 }
    var hotplugDescriptor: Int32 { -1 }
    var isFlipPending: Bool { false }
    var isOutputOff: Bool { false }
    var canSwitchOff: Bool { false }
    var drawsStateItself: Bool { true }
    var states: [LockScreenState] = []
    var frames = 0

    mutating func show(_ frame: [UInt8], damage: Rect) throws(Never) -> Bool {
      frames += 1
      return true
    }
    mutating func show(state: LockScreenState) throws(Never) -> Bool {
      states.append(state)
      return true
    }
    mutating func completeFlip() throws(Never) -> UInt64? { nil }
    mutating func hotplug() throws(Never) -> Bool { false }
    mutating func switchOff() throws(Never) {}
    mutating func switchOn(showing frame: [UInt8]) throws(Never) {}
  }

  func testTheStateIsHandedOverAndThePanelFrameIsNotDrawn() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout)
    var display = StateDisplay()
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    XCTAssertTrue(screen.isDirty)
    XCTAssertTrue(try screen.present(on: &display, at: 0).presented)
    XCTAssertFalse(screen.isDirty, "a state handed over is presented")
    screen.receive(.touch(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 1000)), at: 1000, judge: &judge)
    screen.receive(.touch(TouchEvent(kind: .frame, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 1000)), at: 1000, judge: &judge)
    _ = try screen.present(on: &display, at: 1000)
    XCTAssertEqual(display.states.count, 2)
    XCTAssertEqual(display.states.last, screen.controller.state)
    XCTAssertEqual(display.states.last?.trail, DotSequence([1]))
    XCTAssertEqual(display.frames, 0, "no frame of the panel")
    XCTAssertNil(screen.picture.shown, "the panel's picture is never drawn")
  }
}
