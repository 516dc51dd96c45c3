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

/// The lock screen with a moving grid, fed its placements by a seed: the same seed
/// gives the same pictures, the grid moves after each verdict, `off` ignores the
/// source, and stepping it through moves allocates nothing.
final class GridMotionScreenTests: XCTestCase {
  private func events(_ name: String, layout: GridLayout) throws -> [TouchEvent] {
    try Recording(contentsOf: Captures.path(name)).touchEvents(transform: layout.transform)
  }

  /// Every presented state of a replay of `capture` on a screen made by `make`.
  private func play(_ capture: String, layout: GridLayout, _ make: () -> LockScreen<XRGB8888>) throws -> [LockScreenState] {
    var screen = make()
    var input = RecordedInput(try events(capture, layout: layout))
    var display = MemoryDisplay<XRGB8888>(width: layout.transform.panelWidth, height: layout.transform.panelHeight)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    var states: [LockScreenState] = []
    try RecordedPlayback.play(
      &input, screen: &screen, display: &display, judge: &judge, pictures: .each(atMost: 10_000),
      onPicture: { state, _ in states.append(state) })
    return states
  }

  func testASeedPlacesTheGridAlikeEveryTimeAndItMovesAfterAVerdict() throws {
    let layout = try GridLayout(LayoutOptions())
    for motion in [GridMotion.shift, .turn] {
      let config = ScreenConfiguration.testing(gridMotion: motion)
      let a = try play("two-gestures", layout: layout) { LockScreen(testing: layout, config, gridSeed: 7) }
      let b = try play("two-gestures", layout: layout) { LockScreen(testing: layout, config, gridSeed: 7) }
      XCTAssertEqual(a, b, "\(motion): one seed, one play")
      let grids = a.map(\.grid).reduce(into: [GridPlacement]()) { if $0.last != $1 { $0.append($1) } }
      XCTAssertGreaterThanOrEqual(grids.count, 2, "\(motion): the grid must move when a verdict clears: \(grids)")
      let seeds = (0..<8).map { seed in
        (try? play("two-gestures", layout: layout) { LockScreen(testing: layout, config, gridSeed: UInt64(seed)) })?.first?.grid
      }
      XCTAssertGreaterThan(Set(seeds.compactMap { $0 }).count, 1, "\(motion): seeds must place the grid differently")
    }
  }

  /// `grid-motion = off` with a source of placements at hand draws exactly what the
  /// screen without one draws.
  func testOffIgnoresTheSource() throws {
    let layout = try GridLayout(LayoutOptions())
    let config = ScreenConfiguration.testing()
    for capture in ["two-gestures", "z-1235789", "l-shape-1236"] {
      let plain = try play(capture, layout: layout) { LockScreen(testing: layout, config) }
      let given = try play(capture, layout: layout) {
        LockScreen(
          layout: layout, configuration: config, text: ScreenText(atlas: nil, message: [], language: .en), minimumDots: 4,
          prompt: .drawPattern, gridRandomness: SeededGridRandomness(seed: 99))
      }
      XCTAssertEqual(plain, given, capture)
      XCTAssertTrue(given.allSatisfy { $0.grid == .home }, capture)
    }
  }

  /// Stepping a moving grid through verdicts (each clearing moves it, redraws the old
  /// and the new place, and draws the next placement from the source) allocates nothing.
  func testAMovingGridAllocatesNothing() throws {
    let layout = try GridLayout(LayoutOptions())
    for (motion, seed) in [(GridMotion.shift, UInt64(3)), (.turn, 3)] {
      let list = MovingGridStrokes.events([7, 5, 3, 6], layout: layout, motion: motion, seed: seed, attempts: 4)
      let placements = MovingGridStrokes.placements(motion, seed: seed, count: 4)
      XCTAssertGreaterThan(Set(placements).count, 1, "\(motion): pick a seed whose grid moves")
      let config = ScreenConfiguration.testing(gridMotion: motion)
      var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
      var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
      // Warm-up pass: first use instantiates runtime metadata.
      var warm = LockScreen<XRGB8888>(testing: layout, config, gridSeed: seed)
      try step(list, &warm, &display, &judge)
      var screen = LockScreen<XRGB8888>(testing: layout, config, gridSeed: seed)
      _ = try screen.present(on: &display, at: list[0].timeMicroseconds)
      var grids: [GridPlacement] = []
      grids.reserveCapacity(list.count)
      let allocations = try step(list, &screen, &display, &judge) { grids.append($0.controller.grid) }
      XCTAssertEqual(Set(grids), Set(placements), "\(motion): each attempt on its own placement")
      XCTAssertEqual(allocations, 0, "\(motion): a moving grid allocated")
    }
  }

  /// Steps `screen` through `list` as the live loop would (the verdict's end first,
  /// each event, a frame at each frame event); returns the allocations counted.
  @discardableResult
  private func step(
    _ list: [TouchEvent], _ screen: inout LockScreen<XRGB8888>, _ display: inout MemoryDisplay<XRGB8888>,
    _ judge: inout MatchJudge, after: (LockScreen<XRGB8888>) -> Void = { _ in }
  ) throws -> Int64 {
    var allocations: Int64 = 0
    var i = 0
    while i < list.count {
      let event = list[i]
      allocation_counter_start()
      if let ends = screen.controller.feedbackEnds, event.timeMicroseconds >= ends {
        screen.advance(to: ends, judge: &judge)
        _ = try screen.present(on: &display, at: ends)
      }
      screen.receive(.touch(event), at: event.timeMicroseconds, judge: &judge)
      if event.kind == .frame { _ = try screen.present(on: &display, at: event.timeMicroseconds) }
      allocations += allocation_counter_stop()
      after(screen)
      i += 1
    }
    return allocations
  }
}
