import AllocationCounter
import XCTest
@testable import PatternCore

/// The moving grid (`grid-motion`): placements are values, the hit test and the tap
/// cells follow them, the grid stays inside its square clear of everything else, and
/// a seed gives the same placements every time.
final class GridMotionTests: XCTestCase {
  private func layout(_ w: Int, _ h: Int, rotation: Rotation = .none, grid: Int = 3, messageLines: Int = 0,
                      powerButton: Bool = false, dpi: Int? = nil) throws -> GridLayout {
    try GridLayout(LayoutOptions(panelWidth: w, panelHeight: h, rotation: rotation, gridSize: grid, dotsPerInch: dpi,
                                 messageLines: messageLines, powerButton: powerButton))
  }

  /// Every placement worth trying: the four turns and the shift's corners and middles.
  private var placements: [GridPlacement] {
    var list: [GridPlacement] = []
    for turns in 0...3 { list.append(GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: turns)) }
    for x in [-16, -7, 0, 9, 16] {
      for y in [-16, 0, 5, 16] { list.append(GridPlacement(shiftX: x, shiftY: y, quarterTurns: 0)) }
    }
    return list
  }

  func testTurnsRenumberTheGridAndComeBack() {
    for n in LayoutOptions.gridSizes {
      for turns in 0...3 {
        let p = GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: turns)
        let slots = Set((1...n * n).map { p.slot(of: $0, gridSize: n) })
        XCTAssertEqual(slots.count, n * n, "grid \(n) turns \(turns): not a permutation")
        for dot in 1...n * n {
          XCTAssertEqual(p.dot(atSlot: p.slot(of: dot, gridSize: n), gridSize: n), dot, "grid \(n) turns \(turns) dot \(dot)")
        }
      }
      // A quarter turn clockwise puts the grid's top left corner at the top right.
      XCTAssertEqual(GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 1).slot(of: 1, gridSize: n), n)
      XCTAssertEqual(GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 2).slot(of: 1, gridSize: n), n * n)
      XCTAssertEqual(GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 3).slot(of: 1, gridSize: n), n * n - n + 1)
    }
  }

  /// A quarter turn moves each centre a quarter turn about the grid's centre (to
  /// within the layout's rounding of a pixel), so the turned grid is the grid turned.
  func testATurnedGridIsTheGridTurnedAboutItsCentre() throws {
    let l = try layout(800, 480)
    let cx = Double(l.gridRect.x) + Double(l.gridRect.width) / 2, cy = Double(l.gridRect.y) + Double(l.gridRect.height) / 2
    let turned = GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 1)
    for dot in 1...l.dotCount {
      let home = l.centre(of: dot), moved = l.centre(of: dot, placedAt: turned)
      let u = Double(home.x.raw) / 65536 - cx, v = Double(home.y.raw) / 65536 - cy
      XCTAssertEqual(Double(moved.x.raw) / 65536, cx - v, accuracy: 1, "dot \(dot)")
      XCTAssertEqual(Double(moved.y.raw) / 65536, cy + u, accuracy: 1, "dot \(dot)")
    }
  }

  /// A drawing through the moved centres of 1-2-3-6 and of the Z joins those dots in
  /// the grid's own frame, on every placement, at several sizes and mountings; taps
  /// at the moved centres tap the same dots. On the upright grid's centres a turned
  /// grid gives the turned numbers.
  func testTheHitTestAndTheTapCellsFollowTheMovedGrid() throws {
    for (w, h, rotation) in [(800, 480, Rotation.none), (480, 800, .none), (800, 480, .clockwise90), (1920, 1080, .upsideDown)] {
      let l = try layout(w, h, rotation: rotation)
      for placement in placements {
        for pattern in [[1, 2, 3, 6], [1, 2, 3, 5, 7, 8, 9], [7, 5, 3, 6, 9]] {
          let context = "\(w)x\(h) rot \(rotation.degrees) \(placement) \(pattern)"
          var drag = GestureTracker(layout: l, minimumDots: 4, inputMode: .drag)
          drag.place(placement)
          var time: UInt64 = 0
          func send(_ t: inout GestureTracker, _ kind: TouchEvent.Kind, _ p: Point) -> GestureOutcome? {
            time += 10_000
            return t.handle(TouchEvent(kind: kind, slot: 0, position: p, timeMicroseconds: time))
          }
          let points = pattern.map { l.centre(of: $0, placedAt: placement) }
          _ = send(&drag, .down, points[0])
          for p in points.dropFirst() { _ = send(&drag, .motion, p) }
          let drawn = send(&drag, .up, points.last!)
          XCTAssertEqual(drawn?.dots, DotSequence(pattern), context)

          var taps = GestureTracker(layout: l, minimumDots: 4, inputMode: .tap)
          taps.place(placement)
          var tapped: GestureOutcome?
          for p in points + [points.last!] {
            _ = send(&taps, .down, p)
            tapped = send(&taps, .up, p) ?? tapped
          }
          XCTAssertEqual(tapped?.dots, DotSequence(pattern), "taps: \(context)")
        }
        for dot in 1...l.dotCount {
          let slotCentre = l.centre(of: placement.slot(of: dot, gridSize: 3))
          let (dx, dy) = l.offset(of: placement)
          let p = Point(x: slotCentre.x + Fixed16(dx), y: slotCentre.y + Fixed16(dy))
          XCTAssertEqual(l.dot(inCellAt: p, placedAt: placement), dot, "cell of dot \(dot): \(placement)")
        }
      }
    }
  }

  /// A shifted grid's dots are where the finger must go: the upright grid's centres
  /// miss them once the shift is more than the hit radius.
  func testAShiftMovesTheHitCircles() throws {
    let l = try layout(800, 480)
    let far = GridPlacement(shiftX: 16, shiftY: 16, quarterTurns: 0)
    let (dx, dy) = l.offset(of: far)
    XCTAssertGreaterThan(dx * dx + dy * dy, l.hitRadius.floor * l.hitRadius.floor, "the room should exceed the hit radius")
    var tracker = GestureTracker(layout: l, minimumDots: 1)
    tracker.place(far)
    let home = l.centre(of: 5)
    _ = tracker.handle(TouchEvent(kind: .down, slot: 0, position: home, timeMicroseconds: 1))
    XCTAssertEqual(tracker.trail.count, 0, "the dot's old place must not hit")
  }

  /// The grid moved as far as it goes keeps its rings (and a turn's mark) inside its
  /// square, a clearance from the edges, over panel sizes, rotations, grid sizes,
  /// messages, the power button and DPI; the square stays on the view and clear of
  /// the prompt, the message and the button.
  func testAMovedGridStaysOnThePanelAndClearOfTheText() throws {
    let sides = [240, 320, 480, 600, 720, 800, 1024, 1080, 1280, 1920, 3840]
    var checked = 0
    for w in sides {
      for h in sides where w * h <= 1920 * 3840 {
        for rotation in Rotation.allCases {
          for n in [3, 4, 7] {
            for (lines, button, dpi) in [(0, false, nil as Int?), (2, true, nil), (1, false, 160)] {
              let l = try layout(w, h, rotation: rotation, grid: n, messageLines: lines, powerButton: button, dpi: dpi)
              let context = "\(w)x\(h) rot \(rotation.degrees) grid \(n) lines \(lines) button \(button) dpi \(dpi ?? 0)"
              let view = Rect(x: 0, y: 0, width: l.transform.viewWidth, height: l.transform.viewHeight)
              XCTAssertEqual(l.gridRect.intersection(view), l.gridRect, context)
              for other in [l.promptRect, l.messageRect, l.powerButtonRect] where !other.isEmpty {
                XCTAssertTrue(other.intersection(l.gridRect).isEmpty, "square meets text or button: \(context)")
              }
              let clear = Fixed16(l.fontPixels / 4)
              let inner = (
                left: Fixed16(l.gridRect.x) + clear, top: Fixed16(l.gridRect.y) + clear,
                right: Fixed16(l.gridRect.maxX) - clear, bottom: Fixed16(l.gridRect.maxY) - clear)
              let reach = l.ringRadius + l.ringStroke / 2
              for placement in placements {
                for dot in 1...l.dotCount {
                  let c = l.centre(of: dot, placedAt: placement)
                  XCTAssertTrue(
                    c.x - reach >= inner.left && c.x + reach <= inner.right && c.y - reach >= inner.top
                      && c.y + reach <= inner.bottom, "dot \(dot) at \(placement) leaves the square: \(context)")
                }
                let mark = l.turnMark(placedAt: GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: placement.quarterTurns))
                let half = l.lineWidth / 2
                for end in [mark.from, mark.to] {
                  XCTAssertTrue(
                    end.x - half >= inner.left && end.x + half <= inner.right && end.y - half >= inner.top
                      && end.y + half <= inner.bottom, "turn mark leaves the square: \(context)")
                  for dot in 1...l.dotCount {
                    let c = l.centre(of: dot)
                    let gap = Int64(reach.raw + half.raw)
                    XCTAssertGreaterThan(c.squaredDistance(to: end), gap * gap, "turn mark on dot \(dot): \(context)")
                  }
                }
              }
              XCTAssertGreaterThan(l.shiftRoomX, 0, context)
              XCTAssertGreaterThan(l.shiftRoomY, 0, context)
              checked += 1
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(checked, 1000)
  }

  func testASeedGivesTheSamePlacementsEveryTimeAndEveryPlacementComes() {
    func draws(_ motion: GridMotion, seed: UInt64, count: Int) -> [GridPlacement] {
      let source = SeededGridRandomness(seed: seed)
      return (0..<count).map { _ in GridPlacement(choosing: motion, randomBits: source.nextBits()) }
    }
    XCTAssertEqual(draws(.shift, seed: 42, count: 50), draws(.shift, seed: 42, count: 50))
    XCTAssertNotEqual(draws(.shift, seed: 42, count: 50), draws(.shift, seed: 43, count: 50))
    // SplitMix64's published first output for seed 0.
    XCTAssertEqual(SeededGridRandomness(seed: 0).nextBits(), 0xE220_A839_7B1D_CDAF)
    let shifts = draws(.shift, seed: 1, count: 5000)
    XCTAssertEqual(Set(shifts.map(\.shiftX)), Set(-16...16))
    XCTAssertEqual(Set(shifts.map(\.shiftY)), Set(-16...16))
    XCTAssertTrue(shifts.allSatisfy { $0.quarterTurns == 0 })
    let turns = draws(.turn, seed: 1, count: 200)
    XCTAssertEqual(Set(turns.map(\.quarterTurns)), Set(0...3))
    XCTAssertTrue(turns.allSatisfy { $0.shiftX == 0 && $0.shiftY == 0 })
  }

  func testOffIsTheUprightGridWhateverTheBits() throws {
    let l = try layout(800, 480)
    for bits: UInt64 in [0, 1, 0xFFFF_FFFF_FFFF_FFFF, 0x1234_5678_9ABC_DEF0] {
      XCTAssertEqual(GridPlacement(choosing: .off, randomBits: bits), .home)
    }
    XCTAssertTrue(l.offset(of: .home) == (0, 0))
    XCTAssertEqual(l.gridRect(placedAt: .home), l.gridRect)
    for dot in 1...l.dotCount { XCTAssertEqual(l.centre(of: dot, placedAt: .home), l.centre(of: dot)) }
  }

  func testAMovedGridAllocatesNothingPerEvent() throws {
    let l = try layout(800, 480)
    var tracker = GestureTracker(layout: l, minimumDots: 4, inputMode: .both)
    tracker.place(GridPlacement(shiftX: -11, shiftY: 7, quarterTurns: 0))
    var events: [TouchEvent] = []
    for round in 0..<50 {
      let base = UInt64(round) * 1_000_000
      let points = [1, 2, 3, 6, 9].map { l.centre(of: $0, placedAt: tracker.placement) }
      events.append(TouchEvent(kind: .down, slot: 0, position: points[0], timeMicroseconds: base))
      for (i, p) in points.enumerated() { events.append(TouchEvent(kind: .motion, slot: 0, position: p, timeMicroseconds: base + UInt64(i + 1) * 1000)) }
      events.append(TouchEvent(kind: .up, slot: 0, position: points.last!, timeMicroseconds: base + 9000))
    }
    for event in events.prefix(8) { _ = tracker.handle(event) }
    var finished = 0
    let allocations = events.withUnsafeBufferPointer { buffer in
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        if let outcome = tracker.handle(buffer[i]) { finished += outcome.dots.count }
        i += 1
      }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "the per-event path allocated")
    XCTAssertEqual(finished, 5 * 50)
  }
}
