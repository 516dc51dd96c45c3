import AllocationCounter
import GoldenSupport
import PatternCore
import Raster
import Scene
import ScreenTestSupport
import CommandTestSupport
import XCTest

final class LockScreenSceneTests: XCTestCase {
  // MARK: What a person sees

  private func golden(_ harness: SceneHarness, _ state: LockScreenState, name: String, format: PixelFormat = .xrgb8888) {
    let frame = harness.fullFrame(state, format: format)
    assertMatchesGolden(
      frame, width: harness.width, height: harness.height, stride: harness.stride(for: format), format: format,
      area: "scene", name: name)
  }

  /// The last state while the finger is still down with `dots` joined.
  private func drawing(_ states: [LockScreenState], dots: Int) -> LockScreenState? {
    states.last { $0.trail.count == dots && $0.finger != nil }
  }

  func testLShapeWhileDrawingAt800x480() throws {
    let h = try SceneHarness(capture: "l-shape-1236")
    let state = try XCTUnwrap(drawing(h.states(), dots: 3))
    golden(h, state, name: "l-shape-800x480-drawing-3-dots")
  }

  func testCorrectPatternShowsSuccessAt800x480() throws {
    let h = try SceneHarness(capture: "l-shape-1236")
    let state = try XCTUnwrap(h.states().first { $0.appearance == .success })
    XCTAssertEqual(state.prompt.string, "Unlocked")
    golden(h, state, name: "l-shape-800x480-unlocked")
  }

  func testWrongPatternShowsRedAt800x480() throws {
    let h = try SceneHarness(capture: "z-1235789")
    let state = try XCTUnwrap(h.states().first { $0.appearance == .wrong })
    XCTAssertEqual(state.trail, DotSequence([1, 2, 3, 5, 7, 8, 9]))
    golden(h, state, name: "z-800x480-wrong")
  }

  func testPortraitWhileDrawingAt480x800() throws {
    let h = try SceneHarness(capture: "portrait-480x800-25896")
    let state = try XCTUnwrap(drawing(h.states(), dots: 4))
    golden(h, state, name: "portrait-480x800-drawing-4-dots")
  }

  func testRGB565FrameAt800x480() throws {
    let h = try SceneHarness(capture: "l-shape-1236")
    let state = try XCTUnwrap(drawing(h.states(), dots: 3))
    golden(h, state, name: "l-shape-800x480-drawing-3-dots-rgb565", format: .rgb565)
  }

  func testStealthHidesTheLineAndTheJoinedDots() throws {
    var theme = Theme()
    theme.stealth = true
    let stealthy = try SceneHarness(capture: "l-shape-1236", theme: theme)
    let plain = try SceneHarness(capture: "l-shape-1236")
    let drawingState = try XCTUnwrap(drawing(stealthy.states(), dots: 3))
    let idle = LockScreenState(prompt: drawingState.prompt)
    XCTAssertEqual(stealthy.fullFrame(drawingState), plain.fullFrame(idle), "stealth must look like nothing is joined")
    XCTAssertNotEqual(plain.fullFrame(drawingState), plain.fullFrame(idle))
    let wrong = LockScreenState(trail: DotSequence([1, 2, 3, 5, 7]), appearance: .wrong, prompt: PromptText("Wrong pattern"))
    let wrongIdle = LockScreenState(appearance: .wrong, prompt: PromptText("Wrong pattern"))
    XCTAssertEqual(stealthy.fullFrame(wrong), plain.fullFrame(wrongIdle), "stealth shows no path on a wrong try either")
  }

  func testMissingFontDrawsNoTextButEverythingElse() throws {
    let h = try SceneHarness(capture: "l-shape-1236", font: false)
    let withFont = try SceneHarness(capture: "l-shape-1236")
    let state = LockScreenState(prompt: PromptText("Draw your unlock pattern"))
    let noText = h.fullFrame(state)
    XCTAssertEqual(noText, h.fullFrame(LockScreenState()))
    XCTAssertNotEqual(noText, withFont.fullFrame(state))
  }

  // MARK: Damage

  /// For every shipped capture and both formats: drawing only the damaged rectangles
  /// onto the previous frame gives the same bytes as a full redraw, every frame.
  func testDamagedRedrawEqualsFullRedrawOverWholeReplays() throws {
    for name in SceneHarness.allCaptures {
      let h = try SceneHarness(capture: name)
      let states = h.states()
      XCTAssertGreaterThan(states.count, 5, name)
      for format in PixelFormat.allCases {
        var incremental = h.makeFrame(format)
        var previous: LockScreenState? = nil
        var partialFrames = 0
        // Every frame is drawn with its damage; under the sanitizer every 4th (and the
        // last) is compared with a full redraw, every one in the plain run.
        let every = SanitizerRun.sampling(everyNth: 4)
        for (index, state) in states.enumerated() {
          let damage = h.renderer.damage(from: previous, to: state)
          if previous != nil && damage.bounds != h.renderer.viewRect { partialFrames += 1 }
          h.render(state, damage: damage, into: &incremental, format: format)
          previous = state
          guard index % every == 0 || index == states.count - 1 else { continue }
          let full = h.fullFrame(state, format: format)
          if incremental != full {
            let i = zip(incremental, full).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            let stride = h.stride(for: format)
            XCTFail("\(name) \(format.name) frame \(index): damaged redraw differs at x \((i % stride) / format.bytesPerPixel), y \(i / stride)")
            break
          }
        }
        XCTAssertGreaterThan(partialFrames, states.count / 2, "\(name): most frames should redraw only part of the screen")
      }
    }
  }

  func testFingerMoveDamagesOnlyAroundTheLastSegment() throws {
    let h = try SceneHarness(capture: "l-shape-1236")
    var a = LockScreenState(trail: DotSequence([1, 2]), finger: Point(x: 600, y: 150))
    var b = a
    b.finger = Point(x: 610, y: 160)
    let damage = h.renderer.damage(from: a, to: b)
    XCTAssertFalse(damage.isEmpty)
    let c2 = h.layout.centre(of: 2)
    XCTAssertTrue(damage.bounds.maxX < 640 && damage.bounds.x > c2.x.floor - 20, "\(damage.bounds)")
    a.finger = b.finger
    XCTAssertTrue(h.renderer.damage(from: a, to: b).isEmpty)
  }

  // MARK: Time

  func testWrongPatternStaysRedForHalfASecondThenClears() throws {
    let h = try SceneHarness(capture: "z-1235789")
    var timeline: [(LockScreenState, UInt64)] = []
    TestPlayback.play(h.events, layout: h.layout, judge: SceneHarness.judge) { timeline.append(($0, $1)) }
    let wrongIndex = try XCTUnwrap(timeline.firstIndex { $0.0.appearance == .wrong })
    let cleared = timeline[wrongIndex + 1]
    XCTAssertEqual(cleared.0, LockScreenState(prompt: .drawPattern))
    XCTAssertEqual(cleared.1 - timeline[wrongIndex].1, 500_000, "red for exactly the feedback time")
  }

  func testInputDuringFeedbackIsIgnored() throws {
    let layout = try GridLayout(LayoutOptions())
    var controller = LockScreenController(layout: layout)
    let outcome = GestureOutcome(dots: DotSequence([1, 2]), result: .tooShort, timeMicroseconds: 1_000_000)
    controller.show(.rejected(PromptText("Too short")), for: outcome)
    XCTAssertNil(controller.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 5), timeMicroseconds: 1_200_000)))
    XCTAssertEqual(controller.state.trail, DotSequence([1, 2]))
    XCTAssertFalse(controller.tracker.isActive)
    _ = controller.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 5), timeMicroseconds: 1_600_000))
    XCTAssertEqual(controller.state.trail, DotSequence([5]))
  }

  func testPromptTextBuildsAndWritesCountdownsWithoutAllocating() {
    var scalars = 0
    PromptText.tryAgain(in: 1).forEachScalar(in: .zhCN) { _ in scalars += 1 }
    allocation_counter_start()
    let text = PromptText.tryAgain(in: 247)
    text.forEachScalar(in: .en) { _ in scalars += 1 }
    text.forEachScalar(in: .de) { _ in scalars += 1 }
    text.forEachScalar(in: .zhCN) { _ in scalars += 1 }
    let allocations = allocation_counter_stop()
    XCTAssertEqual(text.string, "Try again in 4:07")
    XCTAssertEqual(text.text(in: .zhCN), "请在 4:07 后重试")
    XCTAssertEqual(allocations, 0)
  }

  /// With a fading line (every segment's opacity changes when a dot is joined) and
  /// with taps: damaged redraws still equal full redraws, frame by frame.
  func testDamagedRedrawEqualsFullRedrawWithAFadingTrailAndTaps() throws {
    var fading = Theme()
    fading.fadeTrail = true
    for (name, mode) in [("z-1235789", InputMode.drag), ("two-gestures", .both), ("taps-1236", .tap), ("taps-480x800-2589", .tap)] {
      let h = try SceneHarness(capture: name, theme: fading)
      let states = h.states(inputMode: mode)
      var incremental = h.makeFrame(.xrgb8888)
      var previous: LockScreenState? = nil
      for (index, state) in states.enumerated() {
        h.render(state, damage: h.renderer.damage(from: previous, to: state), into: &incremental, format: .xrgb8888)
        if incremental != h.fullFrame(state) {
          XCTFail("\(name) frame \(index): damaged redraw differs from a full redraw")
          break
        }
        previous = state
      }
    }
  }

  // MARK: Allocation

  /// Hundreds of frames, damage and render, both formats: no heap allocation.
  func testRenderingFramesAllocatesNothing() throws {
    var fading = Theme()
    fading.fadeTrail = true
    for (name, theme, mode) in [
      ("l-shape-1236", Theme(), InputMode.drag), ("z-1235789", Theme(), .drag), ("two-gestures", Theme(), .drag),
      ("z-1235789", fading, .drag), ("taps-1236", fading, .tap),
    ] {
      let h = try SceneHarness(capture: name, theme: theme)
      let states = h.states(inputMode: mode)
      for format in PixelFormat.allCases {
        var frame = h.makeFrame(format)
        let stride = h.stride(for: format)
        let (w, hh, renderer) = (h.width, h.height, h.renderer)
        let allocations = states.withUnsafeBufferPointer { list in
          frame.withUnsafeMutableBytes { bytes in
            func run<S: PixelStorage>(_ canvas: Canvas<S>) -> Int64 {
              // Warm-up: lazily instantiated runtime metadata is not per-frame work.
              renderer.render(list[0], into: canvas, damage: renderer.damage(from: nil, to: list[0]))
              allocation_counter_start()
              var previous = list[0]
              var i = 1
              while i < list.count {
                renderer.render(list[i], into: canvas, damage: renderer.damage(from: previous, to: list[i]))
                previous = list[i]
                i += 1
              }
              return allocation_counter_stop()
            }
            switch format {
            case .xrgb8888: return run(Canvas<XRGB8888>(pixels: bytes, width: w, height: hh, bytesPerRow: stride, rasterizer: renderer.rasterizer))
            case .rgb565: return run(Canvas<RGB565>(pixels: bytes, width: w, height: hh, bytesPerRow: stride, rasterizer: renderer.rasterizer))
            }
          }
        }
        XCTAssertGreaterThan(states.count, 5, name)
        XCTAssertEqual(allocations, 0, "\(name) \(format.name): rendering allocated")
      }
    }
  }
}

final class KeyboardEntryTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions())

  func testDigitsJoinDotsAndEnterSubmits() {
    var c = LockScreenController(layout: layout)
    for dot in [1, 2, 3, 6] { c.keyDot(dot, at: 10) }
    c.keyDot(2, at: 11)  // already joined
    c.keyDot(10, at: 12)  // beyond a 3x3 grid
    XCTAssertEqual(c.state.trail, DotSequence([1, 2, 3, 6]))
    let outcome = c.keySubmit(at: 20)
    XCTAssertEqual(outcome?.dots, DotSequence([1, 2, 3, 6]))
    XCTAssertEqual(outcome?.result, .complete)
    XCTAssertNil(c.keySubmit(at: 21), "nothing left to submit")
  }

  func testBackspaceAndEscapeEditTheKeyedPattern() {
    var c = LockScreenController(layout: layout)
    c.keyDot(1, at: 0)
    c.keyDot(5, at: 0)
    c.keyBackspace(at: 0)
    XCTAssertEqual(c.state.trail, DotSequence([1]))
    c.keyClear(at: 0)
    XCTAssertTrue(c.state.trail.isEmpty)
    c.keyDot(7, at: 0)
    XCTAssertEqual(c.keySubmit(at: 1)?.result, .tooShort)
  }

  func testAFingerTakesOverFromHalfTypedDots() {
    var c = LockScreenController(layout: layout)
    c.keyDot(9, at: 0)
    _ = c.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 5))
    XCTAssertEqual(c.state.trail, DotSequence([1]))
    XCTAssertNil(c.keySubmit(at: 6), "keys are ignored while a finger draws")
    // Stray motion from another finger does not wipe the trail.
    _ = c.handle(TouchEvent(kind: .motion, slot: 3, position: layout.centre(of: 9), timeMicroseconds: 7))
    XCTAssertEqual(c.state.trail, DotSequence([1]))
  }

  func testKeysAreIgnoredDuringAVerdict() {
    var c = LockScreenController(layout: layout)
    c.show(.rejected(PromptText("Wrong pattern")), for: GestureOutcome(dots: DotSequence([1, 2, 3, 4]), result: .complete, timeMicroseconds: 100))
    c.keyDot(5, at: 200)
    XCTAssertEqual(c.state.trail, DotSequence([1, 2, 3, 4]))
    c.keyDot(5, at: 100 + 500_000)
    XCTAssertEqual(c.state.trail, DotSequence([5]), "after the verdict the keys work again")
  }
}

final class MouseCursorTests: XCTestCase {
  func testCursorIsDrawnWhereTheMousePointsAndDamagedWhenItMoves() throws {
    let h = try SceneHarness(capture: "l-shape-1236", font: false)
    let plain = LockScreenState()
    var withCursor = plain
    withCursor.pointer = Point(x: 100, y: 100)
    let a = h.fullFrame(plain), b = h.fullFrame(withCursor)
    XCTAssertNotEqual(a, b)
    // Only pixels near the cursor differ.
    let stride = h.stride(for: .xrgb8888)
    for i in Swift.stride(from: 0, to: a.count, by: 4) where a[i] != b[i] {
      let x = (i % stride) / 4, y = i / stride
      XCTAssertTrue(abs(x - 100) <= 12 && abs(y - 100) <= 12, "pixel (\(x), \(y)) changed far from the cursor")
    }
    // Moving it repairs the old place: damage-only redraw equals a full redraw.
    var moved = withCursor
    moved.pointer = Point(x: 300, y: 200)
    var frame = b
    h.render(moved, damage: h.renderer.damage(from: withCursor, to: moved), into: &frame, format: .xrgb8888)
    XCTAssertTrue(frame == h.fullFrame(moved))
  }
}

final class LockoutTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions())

  func testLockoutCountsDownAfterTheVerdictAndRefusesInput() {
    var c = LockScreenController(layout: layout)
    let wrong = GestureOutcome(dots: DotSequence([1, 2, 3, 4]), result: .complete, timeMicroseconds: 1_000_000)
    c.show(.rejected(PromptText("Wrong pattern")), for: wrong)
    c.lockOut(.seconds(60), at: 1_000_000)
    XCTAssertEqual(c.state.prompt.string, "Wrong pattern", "the verdict shows first")
    XCTAssertEqual(c.nextChange(after: 1_000_000), 1_500_000)
    c.advance(to: 1_500_000)
    XCTAssertEqual(c.state.prompt.string, "Try again in 0:60".replacingOccurrences(of: "0:60", with: "1:00"))
    XCTAssertEqual(c.state.appearance, .wrong)
    XCTAssertTrue(c.state.trail.isEmpty, "no path is shown during a lockout")
    // Input is refused.
    XCTAssertNil(c.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 2_000_000)))
    c.keyDot(1, at: 2_000_000)
    XCTAssertTrue(c.state.trail.isEmpty)
    // The countdown ticks on whole seconds.
    XCTAssertEqual(c.nextChange(after: 2_000_000), 3_000_000)
    c.advance(to: 31_000_000)
    XCTAssertEqual(c.state.prompt.string, "Try again in 0:30")
    // And ends.
    c.advance(to: 61_000_000)
    XCTAssertFalse(c.isLockedOut)
    XCTAssertEqual(c.lockout(at: 61_000_000), .none)
    XCTAssertEqual(c.state.prompt.string, "Draw your unlock pattern")
    _ = c.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 62_000_000))
    XCTAssertEqual(c.state.trail, DotSequence([1]))
  }

  func testPermanentLockoutNeverEnds() {
    var c = LockScreenController(layout: layout)
    c.lockOut(.permanent, at: 0)
    XCTAssertEqual(c.state.prompt.string, "Locked: ask an administrator")
    XCTAssertNil(c.nextChange(after: 0))
    c.advance(to: 1_000_000_000_000)
    XCTAssertEqual(c.lockout(at: 1_000_000_000_000), .permanent)
    XCTAssertNil(c.handle(TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 1_000_000_000_001)))
  }

  func testCountdownTextForLongLockouts() {
    XCTAssertEqual(PromptText.tryAgain(in: 59).string, "Try again in 0:59")
    XCTAssertEqual(PromptText.tryAgain(in: 5400).string, "Try again in 1:30:00")
    XCTAssertEqual(PromptText.tryAgain(in: 3 * 86_400 + 5).string, "Try again in 3 days")
  }
}

final class IdleBlankingTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions())
  private func touch(_ kind: TouchEvent.Kind, _ dot: Int, at t: UInt64) -> TouchEvent {
    TouchEvent(kind: kind, slot: 0, position: layout.centre(of: dot), timeMicroseconds: t)
  }

  func testScreenBlanksAfterTheIdleTimeAndTheWakingTouchDrawsNothing() {
    var c = LockScreenController(layout: layout, idleBlankMicroseconds: 30_000_000)
    c.advance(to: 1_000_000)
    XCTAssertFalse(c.state.blanked)
    XCTAssertEqual(c.nextChange(after: 1_000_000), 31_000_000)
    c.advance(to: 31_000_000)
    XCTAssertTrue(c.state.blanked)
    XCTAssertNil(c.nextChange(after: 31_000_000), "nothing changes by itself while blank")
    // The waking touch is used up: its finger draws nothing.
    XCTAssertNil(c.handle(touch(.down, 1, at: 40_000_000)))
    XCTAssertFalse(c.state.blanked)
    _ = c.handle(touch(.motion, 2, at: 40_100_000))
    XCTAssertTrue(c.state.trail.isEmpty)
    _ = c.handle(touch(.up, 2, at: 40_200_000))
    // The next touch draws, and keeps the screen awake while the finger is down.
    _ = c.handle(touch(.down, 1, at: 41_000_000))
    c.advance(to: 100_000_000)
    XCTAssertFalse(c.state.blanked, "never blanks under a finger")
    XCTAssertEqual(c.state.trail, DotSequence([1]))
  }

  /// A finger resting past the idle time must not make the loop wake at a moment
  /// already past (it would spin); lifting it brings the idle moment back.
  func testAFingerRestingPastTheIdleTimeAsksForNoWakeUp() {
    var c = LockScreenController(layout: layout, idleBlankMicroseconds: 1_000_000)
    c.advance(to: 0)
    _ = c.handle(touch(.down, 1, at: 100_000))
    c.advance(to: 5_000_000)
    XCTAssertFalse(c.state.blanked)
    XCTAssertNil(c.nextChange(after: 5_000_000), "nothing to wake for while the finger rests")
    _ = c.handle(touch(.up, 1, at: 6_000_000))
    XCTAssertEqual(c.nextChange(after: 6_000_000), 7_000_000, "idle again, counted from the lift")
  }

  func testKeysWakeTheScreenToo() {
    var c = LockScreenController(layout: layout, idleBlankMicroseconds: 1_000_000)
    c.advance(to: 0)
    c.advance(to: 2_000_000)
    XCTAssertTrue(c.state.blanked)
    c.keyDot(5, at: 2_100_000)
    XCTAssertFalse(c.state.blanked)
    XCTAssertTrue(c.state.trail.isEmpty, "the waking key joins nothing")
    c.keyDot(5, at: 2_200_000)
    XCTAssertEqual(c.state.trail, DotSequence([5]))
  }

  func testBlankScreenIsBlackAndWakingRepaintsAll() throws {
    let h = try SceneHarness(capture: "l-shape-1236", font: false)
    var blank = LockScreenState()
    blank.blanked = true
    let frame = h.fullFrame(blank)
    let stride = h.stride(for: .xrgb8888)
    for y in Swift.stride(from: 0, to: h.height, by: 7) {
      for x in Swift.stride(from: 0, to: h.width, by: 7) {
        XCTAssertEqual(frame[y * stride + x * 4 ..< y * stride + x * 4 + 3], [0, 0, 0], "(\(x), \(y)) is not black")
      }
    }
    XCTAssertEqual(h.renderer.damage(from: LockScreenState(), to: blank).bounds, h.renderer.viewRect)
    XCTAssertEqual(h.renderer.damage(from: blank, to: LockScreenState()).bounds, h.renderer.viewRect)
    var blankCountdown = blank
    blankCountdown.prompt = PromptText("Try again in 0:41")
    XCTAssertTrue(h.renderer.damage(from: blank, to: blankCountdown).isEmpty, "nothing is drawn while blank")
  }

  func testWithoutAnIdleTimeTheScreenNeverBlanks() {
    var c = LockScreenController(layout: layout)
    c.advance(to: 0)
    c.advance(to: 1_000_000_000_000)
    XCTAssertFalse(c.state.blanked)
    XCTAssertNil(c.nextChange(after: 1_000_000_000_000))
  }
}

/// A countdown's timer fires only when its text changes: once a day while it shows
/// days, once a second below two days.
final class CountdownTickTests: XCTestCase {
  func testCountdownInDaysChangesOnceADay() {
    let layout = try! GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 480))
    var controller = LockScreenController(layout: layout)
    let second: UInt64 = 1_000_000
    controller.lockOut(.seconds(5 * 86_400), at: 0)
    XCTAssertEqual(controller.state.prompt, PromptText.tryAgain(in: 5 * 86_400))
    // Whole days are shown rounded down: "5 days" only while 5 days are left.
    let first = controller.nextChange(after: 0)!
    XCTAssertEqual(first, second)
    controller.advance(to: first - 1)
    XCTAssertEqual(controller.state.prompt, PromptText.tryAgain(in: 5 * 86_400))
    controller.advance(to: first)
    XCTAssertEqual(controller.state.prompt, PromptText.tryAgain(in: 5 * 86_400 - 1))
    XCTAssertEqual(controller.nextChange(after: first), 86_400 * second + second, "then once a day")
    let atTwoDays = 3 * 86_400 * second
    XCTAssertEqual(controller.nextChange(after: atTwoDays), atTwoDays + second, "from two days on, every second")
  }
}
