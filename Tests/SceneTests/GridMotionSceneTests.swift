import GoldenSupport
import PatternCore
import Raster
import Scene
import Typeface
import XCTest

/// The moving grid on screen and in the controller: goldens of a shifted and a turned
/// grid while drawing and at a verdict, damage-only frames equal to whole ones across
/// a move, the grid moving at the start and when a verdict clears (and never while
/// `grid-motion` is off), and keys and stealth following the moved grid.
final class GridMotionSceneTests: XCTestCase {
  private let shifted = GridPlacement(shiftX: 16, shiftY: -10, quarterTurns: 0)
  private let turned = GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 1)

  private func golden(_ h: SceneHarness, _ state: LockScreenState, _ name: String) {
    assertMatchesGolden(
      h.fullFrame(state), width: h.width, height: h.height, stride: h.stride(for: .xrgb8888), format: .xrgb8888,
      area: "scene", name: name)
  }

  /// A finger drawing `dots` on the grid at `placement`, halfway on to dot 9's place.
  private func drawing(_ dots: [Int], on h: SceneHarness, _ placement: GridPlacement) -> LockScreenState {
    let last = h.layout.centre(of: dots.last!, placedAt: placement), next = h.layout.centre(of: 9, placedAt: placement)
    let finger = Point(x: (last.x + next.x) / 2, y: (last.y + next.y) / 2)
    return LockScreenState(trail: DotSequence(dots), finger: finger, prompt: .drawPattern, grid: placement)
  }

  func testGoldensOfAShiftedAndATurnedGrid() throws {
    let shift = try SceneHarness(capture: "l-shape-1236", gridMotion: .shift)
    golden(shift, drawing([1, 2, 3, 6], on: shift, shifted), "grid-shift-800x480-drawing-4-dots")
    golden(
      shift, LockScreenState(trail: DotSequence([1, 2, 3, 5, 7, 8, 9]), appearance: .wrong, prompt: .wrongPattern, grid: shifted),
      "grid-shift-800x480-wrong")
    let turn = try SceneHarness(capture: "portrait-480x800-25896", gridMotion: .turn)
    golden(turn, drawing([1, 2, 3, 6], on: turn, turned), "grid-turn-480x800-drawing-4-dots")
    golden(
      turn, LockScreenState(trail: DotSequence([1, 2, 3, 6]), appearance: .success, prompt: .unlocked, grid: turned),
      "grid-turn-480x800-unlocked")
    let upsideDown = GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 2)
    let wide = try SceneHarness(capture: "l-shape-1236", gridMotion: .turn)
    golden(
      wide, LockScreenState(trail: DotSequence([7, 5, 3, 6, 9]), appearance: .wrong, prompt: .wrongPattern, grid: upsideDown),
      "grid-turn-800x480-wrong-180")
  }

  /// A turned grid shows its dot 1 where the turn puts it: a key (or a finger) on dot
  /// 1 lights the top right dot after a quarter turn, and the top left stays unlit.
  func testAJoinedDotIsLitWhereTheTurnPutsIt() throws {
    let h = try SceneHarness(capture: "l-shape-1236", gridMotion: .turn)
    let frame = h.fullFrame(LockScreenState(trail: DotSequence([1]), prompt: .drawPattern, grid: turned))
    let stride = h.stride(for: .xrgb8888)
    func pixel(_ p: Point) -> UInt32 {
      let offset = p.y.floor * stride + p.x.floor * 4
      return UInt32(frame[offset]) | UInt32(frame[offset + 1]) << 8 | UInt32(frame[offset + 2]) << 16
    }
    let theme = Theme()
    XCTAssertEqual(pixel(h.layout.centre(of: 3)), XRGB8888.word(for: theme.accent(for: .entry)) & 0xFF_FFFF)
    XCTAssertEqual(pixel(h.layout.centre(of: 1)), XRGB8888.word(for: theme.dot) & 0xFF_FFFF)
  }

  /// Drawn a frame at a time with damage only, across a grid that moves between
  /// attempts, the frame equals a whole redraw of every state (the old place is
  /// cleared, the new one drawn), with and without stealth.
  func testDamageOnlyFramesEqualWholeFramesAcrossAMove() throws {
    for (motion, placements) in [
      (GridMotion.shift, [GridPlacement.home, shifted, GridPlacement(shiftX: -16, shiftY: 16, quarterTurns: 0)]),
      (.turn, [GridPlacement.home, turned, GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 3)]),
    ] {
      for stealth in [false, true] {
        var theme = Theme()
        theme.stealth = stealth
        let h = try SceneHarness(capture: "l-shape-1236", theme: theme, gridMotion: motion)
        var states: [LockScreenState] = []
        for placement in placements {
          states.append(LockScreenState(prompt: .drawPattern, grid: placement))
          states.append(drawing([1, 2], on: h, placement))
          states.append(drawing([1, 2, 3, 6], on: h, placement))
          states.append(LockScreenState(trail: DotSequence([1, 2, 3, 6]), appearance: .wrong, prompt: .wrongPattern, grid: placement))
        }
        var frame = h.fullFrame(states[0])
        for (i, state) in states.enumerated().dropFirst() {
          h.render(state, damage: h.renderer.damage(from: states[i - 1], to: state), into: &frame, format: .xrgb8888)
          XCTAssertEqual(frame, h.fullFrame(state), "\(motion) stealth \(stealth) state \(i)")
        }
      }
    }
  }

  /// Stealth hides the path on a moved grid as on the upright one: a wrong try shows
  /// the moved grid unlit with the prompt.
  func testStealthHidesThePathOnAMovedGrid() throws {
    var theme = Theme()
    theme.stealth = true
    let h = try SceneHarness(capture: "l-shape-1236", theme: theme, gridMotion: .shift)
    let wrong = LockScreenState(trail: DotSequence([1, 2, 3, 6]), appearance: .wrong, prompt: .wrongPattern, grid: shifted)
    XCTAssertEqual(h.fullFrame(wrong), h.fullFrame(LockScreenState(appearance: .wrong, prompt: .wrongPattern, grid: shifted)))
    XCTAssertNotEqual(h.fullFrame(wrong), h.fullFrame(LockScreenState(appearance: .wrong, prompt: .wrongPattern)))
  }

  /// With the glyphs drawn (whose ascenders and descenders reach past the prompt's
  /// band), a grid moved as far as it goes never meets the prompt's drawn box, at
  /// several panel sizes and rotations, with and without a message.
  func testAMovedGridNeverMeetsThePromptAsDrawn() throws {
    var extremes: [GridPlacement] = []
    for x in [-16, 16] { for y in [-16, 16] { extremes.append(GridPlacement(shiftX: x, shiftY: y, quarterTurns: 0)) } }
    for turns in 0...3 { extremes.append(GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: turns)) }
    for (w, h) in [(800, 480), (480, 800), (320, 240), (240, 320), (1024, 600), (720, 720), (1920, 1080)] {
      for rotation in Rotation.allCases {
        for lines in [0, 2] {
          let layout = try GridLayout(LayoutOptions(panelWidth: w, panelHeight: h, rotation: rotation, messageLines: lines))
          let atlas = try FontLoader.loadAtlas(pixelSize: layout.fontPixels)
          let renderer = LockScreenRenderer(
            layout: layout, atlas: atlas, message: lines > 0 ? ["Call 555", "the desk"] : [], gridMotion: .turn)
          let context = "\(w)x\(h) rot \(rotation.degrees) lines \(lines)"
          for placement in extremes {
            for dot in 1...layout.dotCount {
              let c = layout.centre(of: dot, placedAt: placement)
              let ring = ShapeBounds.ring(center: c, radius: layout.ringRadius, strokeWidth: layout.ringStroke)
              XCTAssertTrue(ring.intersection(renderer.promptBox).isEmpty, "dot \(dot) at \(placement) meets the prompt: \(context)")
              XCTAssertEqual(ring.intersection(renderer.viewRect), ring, "dot \(dot) at \(placement) leaves the view: \(context)")
            }
          }
        }
      }
    }
  }

  // MARK: The controller

  private func touch(_ kind: TouchEvent.Kind, _ p: Point, at time: UInt64) -> TouchEvent {
    TouchEvent(kind: kind, slot: 0, position: p, timeMicroseconds: time)
  }

  /// Draws `dots` at their centres on the grid at `placement` (the controller's
  /// when nil) from `start`; returns the outcome.
  private func draw(
    _ dots: [Int], on c: inout LockScreenController, at placement: GridPlacement? = nil, from start: UInt64
  ) -> GestureOutcome? {
    let layout = c.tracker.layout
    let grid = placement ?? c.grid
    let points = dots.map { layout.centre(of: $0, placedAt: grid) }
    var time = start
    _ = c.handle(touch(.down, points[0], at: time))
    for p in points.dropFirst() {
      time += 10_000
      _ = c.handle(touch(.motion, p, at: time))
    }
    return c.handle(touch(.up, points.last!, at: time + 10_000))
  }

  func testTheGridMovesAtTheStartAndWhenAVerdictClears() throws {
    let layout = try GridLayout(LayoutOptions())
    for motion in [GridMotion.shift, .turn] {
      let first = motion == .shift ? shifted : turned
      let second = motion == .shift ? GridPlacement(shiftX: -5, shiftY: 16, quarterTurns: 0) : GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 2)
      var c = LockScreenController(layout: layout, feedbackMicroseconds: 500_000, gridMotion: motion)
      XCTAssertTrue(c.wantsNextGrid)
      c.moveGrid(to: first)
      XCTAssertEqual(c.state.grid, first)
      XCTAssertEqual(c.tracker.placement, first)
      c.prepareNextGrid(second)
      XCTAssertFalse(c.wantsNextGrid)
      let outcome = try XCTUnwrap(draw([1, 2, 3, 6], on: &c, from: 1_000_000), "\(motion)")
      XCTAssertEqual(outcome.dots, DotSequence([1, 2, 3, 6]), "\(motion): drawn on the moved grid, read in its own frame")
      c.show(.rejected(.wrongPattern), for: outcome)
      c.advance(to: outcome.timeMicroseconds + 400_000)
      XCTAssertEqual(c.state.grid, first, "\(motion): the verdict is shown where it was drawn")
      // The first touch after the verdict's time meets the moved grid at once.
      let ends = try XCTUnwrap(c.feedbackEnds)
      let next = try XCTUnwrap(draw([7, 5, 3, 6], on: &c, at: second, from: ends), "\(motion)")
      XCTAssertEqual(c.state.grid, second, motion.name)
      XCTAssertEqual(c.tracker.placement, second, motion.name)
      XCTAssertEqual(next.dots, DotSequence([7, 5, 3, 6]), "\(motion): the next attempt is read on the new placement")
      XCTAssertTrue(c.wantsNextGrid, "\(motion): the next placement is asked for once this one is taken")
    }
  }

  /// Keys name the grid's own dots whatever way it stands.
  func testKeysNameTheGridsOwnDots() throws {
    let layout = try GridLayout(LayoutOptions())
    var c = LockScreenController(layout: layout, gridMotion: .turn)
    c.moveGrid(to: turned)
    for dot in [1, 2, 3, 6] { c.keyDot(dot, at: 1_000) }
    let outcome = try XCTUnwrap(c.keySubmit(at: 2_000))
    XCTAssertEqual(outcome.dots, DotSequence([1, 2, 3, 6]))
    XCTAssertEqual(c.state.grid, turned)
  }

  /// With `grid-motion = off` nothing moves: placements handed in are ignored, and the
  /// states are those of a controller never handed any.
  func testOffChangesNothing() throws {
    let layout = try GridLayout(LayoutOptions())
    var moved = LockScreenController(layout: layout)
    var plain = LockScreenController(layout: layout)
    XCTAssertFalse(moved.wantsNextGrid)
    moved.moveGrid(to: shifted)
    moved.prepareNextGrid(turned)
    XCTAssertEqual(moved.state, plain.state)
    for (i, dots) in [[1, 2, 3, 6], [7, 5, 3]].enumerated() {
      let start = UInt64(i + 1) * 2_000_000
      let a = draw(dots, on: &moved, from: start), b = draw(dots, on: &plain, from: start)
      XCTAssertEqual(a, b)
      if let a, let b {
        moved.show(.rejected(.wrongPattern), for: a)
        plain.show(.rejected(.wrongPattern), for: b)
      }
      moved.advance(to: start + 1_500_000)
      plain.advance(to: start + 1_500_000)
      XCTAssertEqual(moved.state, plain.state)
      XCTAssertEqual(moved.state.grid, .home)
    }
  }
}
