import AllocationCounter
import CommandTestSupport
import Foundation
import Input
import PatternCore
import Raster
import Recording
import Scene
import XCTest

@testable import patternlock

/// The live lock screen (what `run` drives) over a headless display: the per-event and
/// per-frame path allocates nothing, and the frames equal the headless dumps'.
final class LiveLockScreenTests: XCTestCase {

  private func events(_ name: String, layout: GridLayout) throws -> [TouchEvent] {
    let recording = try Recording(contentsOf: Captures.path(name))
    return try recording.touchEvents(transform: layout.transform)
  }

  /// Runs the events through the screen the way the event loop does (render when
  /// dirty, present to the display, fire the feedback timer when due).
  private func drive(
    _ events: UnsafeBufferPointer<TouchEvent>, screen: inout LiveLockScreen, display: inout HeadlessDisplay,
    expected: DotSequence = DotSequence([1, 2, 3, 6]), frame: ((HeadlessDisplay, LiveLockScreen) -> Void)? = nil
  ) throws {
    var i = 0
    while i < events.count {
      let event = events[i]
      if let ends = screen.feedbackEnds, event.timeMicroseconds >= ends { screen.advance(to: ends) }
      if let outcome = screen.handle(.touch(event), now: event.timeMicroseconds) {
        screen.apply(
          DevelopmentVerdict.judgement(for: outcome, expected: expected, minimumDots: 4), for: outcome, now: event.timeMicroseconds)
      }
      if event.kind == .frame && screen.isDirty {
        let damage = screen.render()  // before reading `panel`: the display gets the new frame
        _ = try display.show(screen.panel, damage: damage)
        frame?(display, screen)
      }
      i += 1
    }
  }

  func testEventsAndFramesAllocateNothing() throws {
    for (name, options) in [("l-shape-1236", LayoutOptions()), ("rotated-90-1478", LayoutOptions(rotation: .clockwise90))] {
      let layout = try GridLayout(options)
      let list = try events(name, layout: layout)
      var screen = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
      var display = HeadlessDisplay(width: 800, height: 480)
      // Warm-up pass: first use instantiates runtime metadata.
      try list.withUnsafeBufferPointer { try drive($0, screen: &screen, display: &display) }
      screen = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
      let damage = screen.render()  // before reading `panel`: the display gets the new frame
      _ = try display.show(screen.panel, damage: damage)
      let before = display.presented
      var allocations: Int64 = 0
      let secret = DotSequence([1, 2, 3, 6])
      var i = 0
      while i < list.count {
        // Counted per step, so the test's own bookkeeping is never counted.
        allocation_counter_start()
        let event = list[i]
        if let ends = screen.feedbackEnds, event.timeMicroseconds >= ends { screen.advance(to: ends) }
        if let outcome = screen.handle(.touch(event), now: event.timeMicroseconds) {
          screen.apply(
            DevelopmentVerdict.judgement(for: outcome, expected: secret, minimumDots: 4), for: outcome,
            now: event.timeMicroseconds)
        }
        if event.kind == .frame && screen.isDirty {
          let damage = screen.render()  // before reading `panel`: the display gets the new frame
          _ = try display.show(screen.panel, damage: damage)
        }
        allocations += allocation_counter_stop()
        i += 1
      }
      XCTAssertGreaterThan(display.presented - before, 30, name)
      XCTAssertEqual(allocations, 0, "\(name): the live event and frame path allocated")
    }
  }

  func testUnlockIsReportedOnlyForTheExpectedPattern() throws {
    let layout = try GridLayout(LayoutOptions())
    var right = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
    var wrong = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
    var display = HeadlessDisplay(width: 800, height: 480)
    let list = try events("l-shape-1236", layout: layout)
    try list.withUnsafeBufferPointer { try drive($0, screen: &right, display: &display) }
    try list.withUnsafeBufferPointer { try drive($0, screen: &wrong, display: &display, expected: DotSequence([1, 2, 3, 5])) }
    XCTAssertTrue(right.unlocked)
    XCTAssertFalse(wrong.unlocked)
    XCTAssertEqual(wrong.controller.state.appearance, .wrong)
  }

  func testKeyboardEntryUnlocks() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
    for n in [1, 2, 3, 6] { _ = screen.handle(.key(.dot(n)), now: 10) }
    let finished = try XCTUnwrap(screen.handle(.key(.submit), now: 20))
    XCTAssertEqual(finished.dots, DotSequence([1, 2, 3, 6]))
    let judgement = DevelopmentVerdict.judgement(for: finished, expected: DotSequence([1, 2, 3, 6]), minimumDots: 4)
    XCTAssertTrue(judgement.unlocks)
    screen.apply(judgement, for: finished, now: 20)
    XCTAssertTrue(screen.unlocked)
  }

  /// What `run` shows equals what `replay --dump` writes: the same renderer and copy.
  func testLiveFramesEqualTheHeadlessRenderOfTheSameState() throws {
    let layout = try GridLayout(LayoutOptions(rotation: .clockwise90))
    var screen = LiveLockScreen(layout: layout, theme: Theme(), atlas: nil)
    var display = HeadlessDisplay(width: 800, height: 480)
    let list = try events("rotated-90-1478", layout: layout)
    var checked = 0
    try list.withUnsafeBufferPointer { buffer in
      try drive(buffer, screen: &screen, display: &display) { display, screen in
        guard checked < 5 || display.presented % 10 == 0 else { return }
        checked += 1
        var dump = FrameDump(renderer: screen.renderer, format: .xrgb8888, directory: nil, contactSheet: nil)
        do { try dump.present(screen.controller.state) } catch { XCTFail("\(error)") }
        let live = display.frame.withUnsafeBytes { Array($0) }
        let same = live == dump.panelFrame
        XCTAssertTrue(same, "frame \(display.presented): the live frame differs from the headless render")
      }
    }
    XCTAssertGreaterThan(checked, 5)
  }
}
