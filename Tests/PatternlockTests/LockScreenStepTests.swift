import AllocationCounter
import CommandTestSupport
import Foundation
import PatternCore
import Raster
import Recording
import Scene
import Screen
import ScreenTestSupport
import Typeface
import XCTest

@testable import LockProgram

/// The lock screen stepped the way `run`'s loop steps it (event by event, the timer
/// fired when due, presented when dirty) onto the in-memory display: the per-event
/// and per-frame path allocates nothing, and the damage-only frames on the display
/// equal the whole frame the screen drew.
final class LockScreenStepTests: XCTestCase {
  /// `--pattern` without the result line, which the loop's allocation test must not
  /// count (printing is the judge's business, not the stepper's).
  struct QuietPatternJudge: PatternJudge {
    var inner: DevelopmentJudge
    init(_ expected: DotSequence) { inner = DevelopmentJudge(expected: expected, minimumDots: 4, matchUnlocks: true) }
    mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
      let matches = outcome.result == .complete && outcome.dots == inner.expected
      return LockScreenController.Judgement(verdict: inner.verdict(for: outcome), unlocks: matches)
    }
  }

  private func events(_ name: String, layout: GridLayout) throws -> [TouchEvent] {
    let recording = try Recording(contentsOf: Captures.path(name))
    return try recording.touchEvents(transform: layout.transform)
  }

  /// The live loop's rules on the recording's clock: its timer fires when it was
  /// armed for, each event is one batch of input, and a frame is presented at the end
  /// of a hardware frame when the rules say so.
  struct LiveSteps {
    var rules = LiveStepRules()
    /// When the armed timer fires; nil while it is not armed.
    var timerDue: UInt64?

    mutating func takeTimer(at now: UInt64) {
      if let delay = rules.takeTimerDelay() { timerDue = now + delay }
    }

    /// One step of the live loop for `event`: the timer if it is due first, the event,
    /// then a present if the rules want one.
    ///
    /// - Returns: whether a frame was presented.
    mutating func step(
      _ event: TouchEvent, screen: inout LockScreen<XRGB8888>, display: inout MemoryDisplay<XRGB8888>,
      judge: inout QuietPatternJudge
    ) throws -> Bool {
      let now = event.timeMicroseconds
      if let due = timerDue, now >= due {
        timerDue = nil
        rules.timerFired(at: due, screen: &screen, judge: &judge)
        takeTimer(at: due)
      }
      rules.receive(.touch(event), at: now, screen: &screen, judge: &judge)
      takeTimer(at: now)
      guard event.kind == .frame else { return false }
      rules.inputTaken(screen, at: now)
      takeTimer(at: now)
      guard rules.shouldPresent(screen, on: display) else { return false }
      let presented = try screen.present(on: &display, at: now).presented
      rules.presented(screen, at: now)
      takeTimer(at: now)
      return presented
    }
  }

  private func drive(
    _ events: [TouchEvent], screen: inout LockScreen<XRGB8888>, display: inout MemoryDisplay<XRGB8888>,
    expected: DotSequence = DotSequence([1, 2, 3, 6]), frame: ((MemoryDisplay<XRGB8888>, LockScreen<XRGB8888>) -> Void)? = nil
  ) throws {
    var judge = QuietPatternJudge(expected)
    var steps = LiveSteps()
    steps.rules.start(screen, at: events.first?.timeMicroseconds ?? 0)
    steps.takeTimer(at: events.first?.timeMicroseconds ?? 0)
    for event in events where try steps.step(event, screen: &screen, display: &display, judge: &judge) {
      frame?(display, screen)
    }
  }

  func testEventsAndFramesAllocateNothing() throws {
    for (name, options) in [("l-shape-1236", LayoutOptions()), ("rotated-90-1478", LayoutOptions(rotation: .clockwise90))] {
      let layout = try GridLayout(options)
      let list = try events(name, layout: layout)
      var screen = LockScreen<XRGB8888>(testing: layout)
      var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
      // Warm-up pass: first use instantiates runtime metadata.
      try drive(list, screen: &screen, display: &display)
      screen = LockScreen<XRGB8888>(testing: layout)
      _ = try screen.present(on: &display, at: list.first?.timeMicroseconds ?? 0)
      let before = display.presented
      var judge = QuietPatternJudge(DotSequence([1, 2, 3, 6]))
      let allocations = try allocationsStepping(list, screen: &screen, display: &display, judge: &judge)
      XCTAssertGreaterThan(display.presented - before, 30, name)
      XCTAssertEqual(allocations, 0, "\(name): the live event and frame path allocated")
    }
  }

  /// The allocations of stepping the screen through `list`, counted per step so the
  /// test's own bookkeeping is never counted.
  private func allocationsStepping(
    _ list: [TouchEvent], screen: inout LockScreen<XRGB8888>, display: inout MemoryDisplay<XRGB8888>,
    judge: inout QuietPatternJudge
  ) throws -> Int64 {
    var allocations: Int64 = 0
    var steps = LiveSteps()
    steps.rules.start(screen, at: list.first?.timeMicroseconds ?? 0)
    steps.takeTimer(at: list.first?.timeMicroseconds ?? 0)
    var i = 0
    while i < list.count {
      allocation_counter_start()
      _ = try steps.step(list[i], screen: &screen, display: &display, judge: &judge)
      allocations += allocation_counter_stop()
      i += 1
    }
    return allocations
  }

  /// The same for taps (confirmed by a tap, and by the pause the timer ends) and for
  /// a fading trail: nothing allocated per event, per timer step or per frame.
  func testTapEntryAndFadingTrailAllocateNothing() throws {
    var fading = Theme()
    fading.fadeTrail = true
    let layout = try GridLayout(LayoutOptions())
    for (name, mode, theme) in [("taps-1236", InputMode.tap, fading), ("taps-pause-7412", .both, fading), ("z-1235789", .drag, fading)] {
      let list = try events(name, layout: layout)
      func makeScreen() -> LockScreen<XRGB8888> { LockScreen<XRGB8888>(testing: layout, .testing(theme: theme, inputMode: mode)) }
      var screen = makeScreen()
      var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
      try drive(list, screen: &screen, display: &display)
      screen = makeScreen()
      _ = try screen.present(on: &display, at: list.first?.timeMicroseconds ?? 0)
      var judge = QuietPatternJudge(DotSequence([1, 2, 3, 6]))
      var allocations = try allocationsStepping(list, screen: &screen, display: &display, judge: &judge)
      var patterns = 0
      allocation_counter_start()
      if let due = screen.controller.tapConfirmationDue {
        screen.advance(to: due, judge: &judge)
        _ = try screen.present(on: &display, at: due)
        patterns += 1
      }
      allocations += allocation_counter_stop()
      if screen.controller.state.appearance != .entry || screen.unlocked { patterns += 1 }
      XCTAssertGreaterThan(patterns, 0, "\(name): a pattern must have been finished")
      XCTAssertEqual(allocations, 0, "\(name): the tap or fading path allocated")
    }
  }

  /// A grid that moves between attempts (`grid-motion`): the verdict's end moves it,
  /// the frame redraws the old place and the new, and the next placement is drawn
  /// from the source, all without allocating.
  func testAMovingGridAllocatesNothing() throws {
    let layout = try GridLayout(LayoutOptions())
    for motion in [GridMotion.shift, .turn] {
      let list = MovingGridStrokes.events([7, 5, 3, 6], layout: layout, motion: motion, seed: 11, attempts: 4)
      let config = ScreenConfiguration.testing(gridMotion: motion)
      var screen = LockScreen<XRGB8888>(testing: layout, config, gridSeed: 11)
      var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
      try drive(list, screen: &screen, display: &display)
      screen = LockScreen<XRGB8888>(testing: layout, config, gridSeed: 11)
      _ = try screen.present(on: &display, at: list.first?.timeMicroseconds ?? 0)
      let firstGrid = screen.controller.grid
      var judge = QuietPatternJudge(DotSequence([1, 2, 3, 6]))
      var allocations = try allocationsStepping(list, screen: &screen, display: &display, judge: &judge)
      allocation_counter_start()
      if let ends = screen.controller.feedbackEnds {
        screen.advance(to: ends, judge: &judge)
        _ = try screen.present(on: &display, at: ends)
      }
      allocations += allocation_counter_stop()
      XCTAssertNotEqual(screen.controller.grid, firstGrid, "\(motion): the grid must have moved")
      XCTAssertGreaterThan(display.presented, 20, "\(motion)")
      XCTAssertEqual(allocations, 0, "\(motion): the moving grid allocated")
    }
  }

  /// A lockout's countdown in every language, with the glyphs `run` loads (Chinese from
  /// the fallback font): writing, breaking and drawing the prompt each second allocates
  /// nothing.
  func testATranslatedCountdownAllocatesNothing() throws {
    for path in [Typeface.FontLoader.defaultFontPath, Typeface.FontLoader.fallbackFontPath] {
      try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "needs \(path)")
    }
    for (width, height) in [(800, 480), (480, 320)] {
      let layout = try GridLayout(LayoutOptions(panelWidth: width, panelHeight: height))
      for language in Language.allCases {
        let atlas = try ScreenText.loadAtlas(
          path: Typeface.FontLoader.defaultFontPath, pixelSize: layout.fontPixels, message: "", language: language)
        var screen = LockScreen<XRGB8888>(testing: layout, .testing(language: language), atlas: atlas)
        var display = MemoryDisplay<XRGB8888>(width: width, height: height)
        var judge = QuietPatternJudge(DotSequence([1, 2, 3, 6]))
        // Two days and a bit: the days, then the hours' countdown.
        let start: UInt64 = 1_000_000
        screen.startLockedOut(.seconds(2 * 86_400 + 3), now: start)
        screen.advance(to: start, judge: &judge)
        _ = try screen.present(on: &display, at: start)
        var allocations: Int64 = 0
        var presented = 0
        for second in 1...8 {
          let now = start + UInt64(second) * 1_000_000
          allocation_counter_start()
          screen.advance(to: now, judge: &judge)
          if screen.isDirty, try screen.present(on: &display, at: now).presented { presented += 1 }
          allocations += allocation_counter_stop()
        }
        XCTAssertGreaterThanOrEqual(presented, 5, language.code)
        XCTAssertEqual(allocations, 0, "\(width)x\(height) \(language.code): the countdown allocated")
        XCTAssertEqual(screen.controller.state.prompt, .tryAgain(in: 2 * 86_400 - 5))
      }
    }
  }

  func testUnlockIsReportedOnlyForTheExpectedPattern() throws {
    let layout = try GridLayout(LayoutOptions())
    var right = LockScreen<XRGB8888>(testing: layout)
    var wrong = LockScreen<XRGB8888>(testing: layout)
    var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
    let list = try events("l-shape-1236", layout: layout)
    try drive(list, screen: &right, display: &display)
    try drive(list, screen: &wrong, display: &display, expected: DotSequence([1, 2, 3, 5]))
    XCTAssertTrue(right.unlocked)
    XCTAssertFalse(wrong.unlocked)
    XCTAssertEqual(wrong.controller.state.appearance, .wrong)
  }

  func testKeyboardEntryUnlocks() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout)
    var judge = QuietPatternJudge(DotSequence([1, 2, 3, 6]))
    for n in [1, 2, 3, 6] { XCTAssertNil(screen.receive(.key(.dot(n)), at: 10, judge: &judge)) }
    let finished = try XCTUnwrap(screen.receive(.key(.submit), at: 20, judge: &judge))
    XCTAssertEqual(finished.dots, DotSequence([1, 2, 3, 6]))
    XCTAssertTrue(screen.unlocked)
    XCTAssertFalse(screen.isFinished, "the unlocked picture is shown for the verdict's time first")
    screen.advance(to: 20 + 500_000, judge: &judge)
    XCTAssertTrue(screen.isFinished)
  }

  /// The display only ever receives the damaged rectangles; after each present what
  /// it holds must equal the whole frame the screen drew (rotation included).
  func testDamageOnlyPresentsKeepTheDisplayEqualToTheWholeFrame() throws {
    let layout = try GridLayout(LayoutOptions(rotation: .clockwise90))
    var screen = LockScreen<XRGB8888>(testing: layout)
    var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
    let list = try events("rotated-90-1478", layout: layout)
    var checked = 0
    try drive(list, screen: &screen, display: &display) { display, screen in
      checked += 1
      XCTAssertTrue(display.frame == screen.frame, "frame \(display.presented): the display differs from the drawn frame")
    }
    XCTAssertGreaterThan(checked, 5)
  }
}
