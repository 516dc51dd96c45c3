import AllocationCounter
import CommandTestSupport
import Foundation
import PatternCore
import Raster
import Recording
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// Idle blanking over a memory display that can switch off (the seam in place of a
/// DRM driver with DPMS) and one that cannot: when the output goes off and on, that
/// nothing is presented while it is off, that waking shows the current picture in
/// full, and that a refusal falls back to black frames once.
final class IdleOutputOffTests: XCTestCase {
  private static let second: UInt64 = 1_000_000
  private static let secret = DotSequence([1, 2, 3, 6])

  /// A capture's events, moved to start at `start` µs.
  private func events(_ name: String, layout: GridLayout, from start: UInt64) throws -> [TouchEvent] {
    let recording = try Recording(contentsOf: Captures.path(name))
    let list = try recording.touchEvents(transform: layout.transform)
    let first = try XCTUnwrap(list.first).timeMicroseconds
    return list.map { event in
      var moved = event
      moved.timeMicroseconds = event.timeMicroseconds - first + start
      return moved
    }
  }

  /// A capture's first touch: its events up to the end of the first hardware frame.
  private func firstTouch(_ name: String, layout: GridLayout, at start: UInt64) throws -> [TouchEvent] {
    let list = try events(name, layout: layout, from: start)
    let end = try XCTUnwrap(list.firstIndex { $0.kind == .frame })
    return Array(list[...end])
  }

  /// The loop's steps without poll: each event, then a frame when dirty.
  private struct Harness {
    var screen: LockScreen<XRGB8888>
    var display: MemoryDisplay<XRGB8888>
    var judge = MatchJudge(IdleOutputOffTests.secret)
    var outcomes = 0
    /// Why the display refused to switch off, once it did.
    var refusal: String?
    /// Frames presented while the output was off (must stay 0).
    var presentsWhileOff = 0

    /// The last moment the harness stepped to: when a frame is presented.
    var now: UInt64 = 0

    mutating func frame() throws {
      guard LiveStepRules().shouldPresent(screen, on: display) else { return }
      let wasOff = display.isOutputOff
      let result = try screen.present(on: &display, at: now)
      if result.presented && wasOff { presentsWhileOff += 1 }
      if let refused = result.switchOffRefusal { refusal = refused.message }
    }

    /// The timer firing at `time`.
    mutating func tick(_ time: UInt64) throws {
      now = max(now, time)
      screen.advance(to: time, judge: &judge)
      try frame()
    }

    mutating func feed(_ events: [TouchEvent]) throws {
      for event in events {
        now = max(now, event.timeMicroseconds)
        if screen.receive(.touch(event), at: event.timeMicroseconds, judge: &judge) != nil { outcomes += 1 }
        if event.kind == .frame { try frame() }
      }
    }
  }

  private func harness(canSwitchOff: Bool, idleSeconds: UInt64 = 2) throws -> Harness {
    let layout = try GridLayout(LayoutOptions())
    let screen = LockScreen<XRGB8888>(
      testing: layout, .testing(feedbackMicroseconds: 3 * Self.second, idleBlankMicroseconds: idleSeconds * Self.second))
    var h = Harness(screen: screen, display: MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: canSwitchOff))
    try h.tick(0)
    XCTAssertEqual(h.display.presented, 1, "the first frame is presented")
    return h
  }

  /// What the panel should show for `state`: the whole state drawn afresh (the
  /// layout is not turned, so the view is the panel).
  private func picture(of state: LockScreenState, _ screen: LockScreen<XRGB8888>) throws -> [UInt8] {
    let renderer = screen.renderer
    let (w, h) = (renderer.layout.transform.viewWidth, renderer.layout.transform.viewHeight)
    var frame = [UInt8](repeating: 0, count: w * h * 4)
    frame.withUnsafeMutableBytes { bytes in
      let canvas = Canvas<XRGB8888>(pixels: bytes, width: w, height: h, bytesPerRow: w * 4, rasterizer: renderer.rasterizer)
      renderer.render(state, into: canvas, damage: renderer.damage(from: nil, to: state))
    }
    return frame
  }

  private func bytes(_ frame: [UInt8]) -> [UInt8] { frame }

  /// Whether every pixel is black (XRGB8888, little-endian: B, G, R, X).
  private func isBlack(_ frame: [UInt8]) -> Bool {
    stride(from: 0, to: frame.count, by: 4).allSatisfy { frame[$0] == 0 && frame[$0 + 1] == 0 && frame[$0 + 2] == 0 }
  }

  func testIdleScreenSwitchesTheOutputOffWithoutPresentingABlackFrame() throws {
    var h = try harness(canSwitchOff: true)
    let idle = h.display.frame
    try h.tick(2 * Self.second - 1)
    XCTAssertFalse(h.display.isOutputOff, "off before the idle time is up")
    try h.tick(2 * Self.second)
    XCTAssertTrue(h.screen.controller.state.blanked)
    XCTAssertTrue(h.display.isOutputOff, "blanking switches the output off")
    XCTAssertEqual(h.display.switchedOff, 1)
    XCTAssertEqual(h.display.presented, 1, "no black frame is flipped before switching off")
    XCTAssertEqual(h.display.frame, idle, "the buffer keeps the last picture while off")
    XCTAssertNil(h.refusal)
    // Later timer ticks and pointer moves while off present nothing and switch nothing.
    h.screen.receive(.cursor(Point(x: 10, y: 10)), at: 3 * Self.second, judge: &h.judge)
    try h.frame()
    try h.tick(60 * Self.second)
    XCTAssertEqual(h.display.switchedOff, 1)
    XCTAssertEqual(h.presentsWhileOff, 0)
    XCTAssertEqual(h.display.presented, 1)
  }

  /// The verdict is on screen when the output goes off and ends while it is off: the
  /// output must come back with the idle picture, not the verdict left in the buffer.
  func testWakingTouchSwitchesOnWithTheCurrentPictureAndIsNotAGesture() throws {
    var h = try harness(canSwitchOff: true, idleSeconds: 1)
    let layout = h.screen.renderer.layout
    let wrong = try events("z-1235789", layout: layout, from: Self.second / 2)
    try h.feed(wrong)
    XCTAssertEqual(h.outcomes, 1)
    let verdict = h.display.frame
    let lastInput = try XCTUnwrap(wrong.last).timeMicroseconds
    try h.tick(lastInput + Self.second)
    XCTAssertTrue(h.display.isOutputOff, "blanked during the verdict")
    try h.tick(lastInput + 4 * Self.second)
    XCTAssertNil(h.screen.controller.feedbackEnds, "the verdict ended while the output was off")
    XCTAssertEqual(h.display.frame, verdict, "nothing was drawn into the buffer while off")

    // The right pattern, drawn onto the dark screen: its first touch only wakes it.
    let presentsBefore = h.display.presented
    let right = try events("l-shape-1236", layout: layout, from: lastInput + 10 * Self.second)
    let firstFrame = try XCTUnwrap(right.firstIndex { $0.kind == .frame })
    try h.feed(Array(right[...firstFrame]))
    XCTAssertFalse(h.display.isOutputOff, "the first touch switches the output on")
    XCTAssertEqual(h.display.switchedOn, 1)
    XCTAssertEqual(h.display.presented, presentsBefore, "switching on is not a flip")
    let idle = try picture(of: h.screen.controller.state, h.screen)
    XCTAssertFalse(h.screen.controller.state.blanked)
    XCTAssertEqual(h.screen.controller.state.trail.count, 0)
    XCTAssertTrue(bytes(h.display.frame) == idle, "the output came back with the idle picture in full")
    XCTAssertFalse(bytes(verdict) == idle, "the verdict differs from the idle picture (else this test proves nothing)")

    try h.feed(Array(right[(firstFrame + 1)...]))
    XCTAssertEqual(h.outcomes, 1, "the rest of the waking gesture is not judged")
    XCTAssertFalse(h.screen.unlocked, "the waking touch does nothing else")
    XCTAssertEqual(h.presentsWhileOff, 0)

    // Idle again: off again; then a lone touch wakes it a second time.
    let end = try XCTUnwrap(right.last).timeMicroseconds
    try h.tick(end + Self.second)
    XCTAssertTrue(h.display.isOutputOff)
    XCTAssertEqual(h.display.switchedOff, 2)
    try h.feed(try firstTouch("l-shape-1236", layout: layout, at: end + 5 * Self.second))
    XCTAssertEqual(h.display.switchedOn, 2)
    XCTAssertTrue(bytes(h.display.frame) == idle)
  }

  func testRefusedSwitchOffIsReportedOnceAndBlanksWithBlackFrames() throws {
    var h = try harness(canSwitchOff: false)
    try h.tick(2 * Self.second)
    XCTAssertFalse(h.display.isOutputOff)
    XCTAssertEqual(h.refusal, "the memory display has no power to switch off")
    XCTAssertTrue(h.screen.blanksWithBlackFrames)
    XCTAssertEqual(h.display.presented, 2, "the blank is shown as a frame")
    XCTAssertTrue(isBlack(h.display.frame), "the screen is black")

    let layout = h.screen.renderer.layout
    try h.feed(try firstTouch("l-shape-1236", layout: layout, at: 5 * Self.second))
    XCTAssertEqual(h.display.presented, 3, "waking presents the picture again")
    XCTAssertTrue(bytes(h.display.frame) == (try picture(of: h.screen.controller.state, h.screen)))

    let attempts = h.display.refusedSwitchOffs
    XCTAssertEqual(attempts, 1)
    try h.tick(5 * Self.second + 2 * Self.second)
    XCTAssertTrue(h.screen.controller.state.blanked)
    XCTAssertEqual(h.display.refusedSwitchOffs, 1, "a refusing display is not asked again")
    XCTAssertTrue(isBlack(h.display.frame))
  }

  func testSwitchingOffAndOnAllocatesNothing() throws {
    var h = try harness(canSwitchOff: true)
    let layout = h.screen.renderer.layout
    // Warm-up: one blank and wake, so runtime metadata is instantiated.
    try h.tick(2 * Self.second)
    try h.feed(try firstTouch("too-short-12", layout: layout, at: 3 * Self.second))
    XCTAssertEqual(h.display.switchedOn, 1)

    let touch = try firstTouch("too-short-12", layout: layout, at: 10 * Self.second)
    allocation_counter_start()
    try h.tick(9 * Self.second)
    let off = allocation_counter_stop()
    XCTAssertTrue(h.display.isOutputOff)
    var on: Int64 = 0
    for event in touch {
      allocation_counter_start()
      h.screen.receive(.touch(event), at: event.timeMicroseconds, judge: &h.judge)
      if event.kind == .frame { try h.frame() }
      on += allocation_counter_stop()
    }
    XCTAssertFalse(h.display.isOutputOff)
    XCTAssertEqual(h.display.switchedOn, 2)
    XCTAssertEqual(off, 0, "switching off allocated")
    XCTAssertEqual(on, 0, "the waking touch and switching on allocated")
  }
}
