import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// A display that draws the lock's state into pictures of its own (the session lock's
/// outputs, each laid out for its own size) is handed the state, and the lock screen's
/// panel picture makes no frame; a display that changes size takes a new layout and
/// the lock keeps its state.
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
    var isFlipPending: Bool { false }
    var states: [LockScreenState] = []

    mutating func present(
      _ state: LockScreenState, picture: inout LockPicture<XRGB8888>, blackFrames: Bool
    ) throws(Never) -> Presentation<Never> {
      states.append(state)
      return Presentation(presented: true)
    }
    mutating func completeFlip() throws(Never) -> UInt64? { nil }
  }

  private func touch(_ kind: TouchEvent.Kind, _ dot: Int, _ layout: GridLayout, at time: UInt64) -> InputEvent {
    .touch(TouchEvent(kind: kind, slot: 0, position: layout.centre(of: dot), timeMicroseconds: time))
  }

  func testTheStateIsHandedOverAndThePanelPictureMakesNoFrame() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout)
    var display = StateDisplay()
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    XCTAssertTrue(screen.isDirty)
    XCTAssertTrue(try screen.present(on: &display, at: 0).presented)
    XCTAssertFalse(screen.isDirty, "a state handed over is presented")
    screen.receive(touch(.down, 1, layout, at: 1000), at: 1000, judge: &judge)
    screen.receive(touch(.frame, 1, layout, at: 1000), at: 1000, judge: &judge)
    _ = try screen.present(on: &display, at: 1000)
    XCTAssertEqual(display.states.count, 2)
    XCTAssertEqual(display.states.last, screen.controller.state)
    XCTAssertEqual(display.states.last?.trail, DotSequence([1]))
    XCTAssertNil(screen.picture.shown, "the panel's picture is never drawn")
    XCTAssertFalse(screen.picture.hasFrames, "and holds no frame")
  }

  /// A new size under a running lock: the wrong verdict, its time and the attempt
  /// stay; only the layout the fingers are hit-tested on changes.
  func testANewSizeKeepsTheVerdictAndHitTestsOnTheNewLayout() throws {
    let small = try GridLayout(LayoutOptions())
    var large = LayoutOptions()
    (large.panelWidth, large.panelHeight) = (1600, 960)
    let wide = try GridLayout(large)
    var screen = LockScreen<XRGB8888>(testing: small, .testing(feedbackMicroseconds: 1000))
    var display = StateDisplay()
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    _ = try screen.present(on: &display, at: 0)
    for (i, dot) in [1, 4, 7, 8].enumerated() {
      let kind: TouchEvent.Kind = i == 0 ? .down : .motion
      screen.receive(touch(kind, dot, small, at: UInt64(10 + i)), at: UInt64(10 + i), judge: &judge)
      screen.receive(touch(.frame, dot, small, at: UInt64(10 + i)), at: UInt64(10 + i), judge: &judge)
    }
    XCTAssertNotNil(screen.receive(touch(.up, 8, small, at: 20), at: 20, judge: &judge))
    screen.receive(touch(.frame, 8, small, at: 20), at: 20, judge: &judge)
    _ = try screen.present(on: &display, at: 100)
    XCTAssertEqual(screen.controller.state.appearance, .wrong)

    screen.relayOut(
      LockScreenRenderer(layout: wide, configuration: .testing(), text: ScreenText(atlas: nil, message: [], language: .en)))
    XCTAssertTrue(screen.isDirty, "everything is drawn again")
    XCTAssertEqual(screen.controller.state.appearance, .wrong, "the verdict stays")
    XCTAssertEqual(screen.controller.state.trail, DotSequence([1, 4, 7, 8]))
    XCTAssertEqual(screen.controller.feedbackEnds, 1100, "its time still runs from its first frame")
    screen.advance(to: 1100, judge: &judge)
    XCTAssertEqual(screen.controller.state.appearance, .entry)

    // The next pattern is drawn where the new layout put the dots.
    for (i, dot) in [1, 2, 3, 6].enumerated() {
      let time = UInt64(2000 + i)
      screen.receive(touch(i == 0 ? .down : .motion, dot, wide, at: time), at: time, judge: &judge)
      screen.receive(touch(.frame, dot, wide, at: time), at: time, judge: &judge)
    }
    let outcome = screen.receive(touch(.up, 6, wide, at: 2010), at: 2010, judge: &judge)
    XCTAssertEqual(outcome?.result, .complete)
    XCTAssertEqual(outcome?.dots, DotSequence([1, 2, 3, 6]))
    XCTAssertNotEqual(wide.centre(of: 6), small.centre(of: 6), "the layouts differ")
  }
}
