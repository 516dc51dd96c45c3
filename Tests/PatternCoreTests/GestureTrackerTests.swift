import AllocationCounter
import XCTest
@testable import PatternCore

/// Drives a tracker with touch events built from dot centres and offsets in pixels.
private struct Finger {
  var tracker: GestureTracker
  var time: UInt64 = 0
  var outcomes: [GestureOutcome] = []

  init(_ layout: GridLayout, minimumDots: Int = 4) {
    tracker = GestureTracker(layout: layout, minimumDots: minimumDots)
  }

  func at(_ dot: Int, dx: Double = 0, dy: Double = 0) -> Point {
    let c = tracker.layout.centre(of: dot)
    return Point(x: c.x + Fixed16(raw: Int32(dx * 65536)), y: c.y + Fixed16(raw: Int32(dy * 65536)))
  }

  mutating func send(_ kind: TouchEvent.Kind, _ p: Point, slot: Int32 = 0) {
    time += 10_000
    if let o = tracker.handle(TouchEvent(kind: kind, slot: slot, position: p, timeMicroseconds: time)) {
      outcomes.append(o)
    }
  }

  /// Touches down at the first point, moves through the rest, lifts at the last.
  mutating func stroke(_ points: [Point], slot: Int32 = 0) {
    send(.down, points[0], slot: slot)
    for p in points.dropFirst() { send(.motion, p, slot: slot) }
    send(.up, points.last!, slot: slot)
  }
}

final class GestureTrackerTests: XCTestCase {
  private let layout3 = try! GridLayout(LayoutOptions())

  private func dots(_ o: GestureOutcome?) -> [Int] {
    guard let o else { return [] }
    return (0..<o.dots.count).map { o.dots[$0] }
  }

  func testLShapeIsCompleteWithFourDots() {
    var f = Finger(layout3)
    f.stroke([f.at(1), f.at(2), f.at(3), f.at(6)])
    XCTAssertEqual(f.outcomes.count, 1)
    XCTAssertEqual(dots(f.outcomes.first), [1, 2, 3, 6])
    XCTAssertEqual(f.outcomes.first?.result, .complete)
    XCTAssertEqual(f.outcomes.first?.dots.dashed, "1-2-3-6")
    XCTAssertEqual(f.outcomes.first?.dots.jsonArray, "[1,2,3,6]")
  }

  func testFewerThanMinimumDotsIsTooShort() {
    var f = Finger(layout3)
    f.stroke([f.at(1), f.at(2)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 2])
    XCTAssertEqual(f.outcomes.first?.result, .tooShort)
  }

  func testTapAwayFromEveryDotGivesNoOutcome() {
    var f = Finger(layout3)
    f.stroke([Point(x: 5, y: 5), Point(x: 6, y: 6)])
    XCTAssertTrue(f.outcomes.isEmpty)
    XCTAssertFalse(f.tracker.isActive)
  }

  func testHitAreaIsACircleNotASquare() {
    let r = 28.8
    var f = Finger(layout3)
    // Inside the bounding square of the hit circle but outside the circle.
    f.stroke([f.at(5, dx: r * 0.75, dy: r * 0.75)])
    XCTAssertTrue(f.outcomes.isEmpty)
    var g = Finger(layout3)
    g.stroke([g.at(5, dx: r * 0.7, dy: r * 0.7)])
    XCTAssertEqual(dots(g.outcomes.first), [5])
    var h = Finger(layout3)
    h.stroke([h.at(5, dx: r + 0.01)])
    XCTAssertTrue(h.outcomes.isEmpty, "the edge of the hit circle is outside")
  }

  func testSkippedMiddleDotIsAdded() {
    // A curve from 1 to 3 that passes below 2, outside its hit circle.
    var f = Finger(layout3)
    f.stroke([f.at(1), f.at(1, dx: 30, dy: 60), f.at(2, dy: 60), f.at(3, dx: -30, dy: 60), f.at(3)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 2, 3])
  }

  func testDiagonalJumpAddsTheCentre() {
    var f = Finger(layout3)
    // Around 5 through the gaps between dots, never within a hit radius of it.
    f.stroke([f.at(1), f.at(1, dx: 72, dy: 72), f.at(2, dx: 72, dy: 72), f.at(5, dx: 72, dy: 72), f.at(9)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 5, 9])
  }

  func testKnightMoveAddsNothing() {
    var f = Finger(layout3)
    f.stroke([f.at(1), f.at(6)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 6])
  }

  func testUsedMiddleDotIsNotAddedAgain() {
    var f = Finger(layout3)
    f.stroke([f.at(2), f.at(1), f.at(3), f.at(6)])
    XCTAssertEqual(dots(f.outcomes.first), [2, 1, 3, 6])
  }

  func testRevisitingADotNeverAddsItTwice() {
    var f = Finger(layout3)
    f.stroke([f.at(1), f.at(2), f.at(1), f.at(2), f.at(5), f.at(2), f.at(8)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 2, 5, 8])
  }

  func testFastSwipeWithTwoSamplesJoinsEveryDotItCrosses() {
    var f = Finger(layout3)
    // Only two samples: on 1, then past 3. Then one jump to past 9.
    f.stroke([f.at(1), f.at(3, dx: 40), f.at(9, dy: 40)])
    XCTAssertEqual(dots(f.outcomes.first), [1, 2, 3, 6, 9])
  }

  func testSwipeAcrossTheGridOrdersDotsAlongTheSegment() {
    var f = Finger(layout3)
    // From right to left along the middle row, starting off the grid.
    f.stroke([f.at(6, dx: 70), f.at(4, dx: -70)])
    XCTAssertEqual(dots(f.outcomes.first), [6, 5, 4])
  }

  func testSecondFingerIsIgnoredUntilTheFirstLifts() {
    var f = Finger(layout3)
    f.send(.down, f.at(1), slot: 0)
    f.send(.down, f.at(9), slot: 1)
    f.send(.motion, f.at(2), slot: 0)
    f.send(.motion, f.at(8), slot: 1)
    f.send(.motion, f.at(3), slot: 0)
    f.send(.motion, f.at(7), slot: 1)
    f.send(.motion, f.at(6), slot: 0)
    f.send(.up, f.at(6), slot: 0)
    // The second finger is still down and moving: it never had a down of its own
    // after the first lifted, so it stays ignored.
    f.send(.motion, f.at(4), slot: 1)
    f.send(.up, f.at(4), slot: 1)
    XCTAssertEqual(f.outcomes.count, 1)
    XCTAssertEqual(dots(f.outcomes.first), [1, 2, 3, 6])
  }

  func testCancelDropsTheGestureWithoutAnOutcome() {
    var f = Finger(layout3)
    f.send(.down, f.at(1))
    f.send(.motion, f.at(2))
    f.send(.motion, f.at(3))
    f.send(.motion, f.at(6))
    f.send(.cancel, f.at(6))
    f.send(.up, f.at(6))
    XCTAssertTrue(f.outcomes.isEmpty)
    XCTAssertFalse(f.tracker.isActive)
    XCTAssertTrue(f.tracker.trail.isEmpty)
    // The next gesture starts fresh.
    f.stroke([f.at(7), f.at(8), f.at(9), f.at(6)])
    XCTAssertEqual(dots(f.outcomes.first), [7, 8, 9, 6])
  }

  func testFingerPositionFollowsTheOwnerForTheRubberBand() {
    var f = Finger(layout3)
    f.send(.down, f.at(1))
    f.send(.motion, Point(x: 500, y: 300))
    XCTAssertEqual(f.tracker.fingerPosition, Point(x: 500, y: 300))
    f.send(.motion, Point(x: 10, y: 10), slot: 3)
    XCTAssertEqual(f.tracker.fingerPosition, Point(x: 500, y: 300))
    f.send(.up, Point(x: 500, y: 300))
    XCTAssertNil(f.tracker.fingerPosition)
  }

  func testGapFillStepsByTheGcdOnLargerGrids() throws {
    let l5 = try GridLayout(LayoutOptions(gridSize: 5))
    var f = Finger(l5)
    // (0,0) -> (2,4) on 5x5: one step of (1,2) in between, dot 8. Curve away from it.
    let start = l5.dot(row: 0, column: 0), end = l5.dot(row: 2, column: 4)
    // Along the gaps between rows and columns (45 px from any dot, hit radius 18).
    f.stroke([f.at(start), f.at(start, dx: 45, dy: 45), f.at(end, dx: -45, dy: -135), f.at(end, dx: -45, dy: -45), f.at(end)])
    XCTAssertEqual(dots(f.outcomes.first), [start, l5.dot(row: 1, column: 2), end])
  }

  /// Every ordered pair of dots on every grid size: a straight stroke from one centre
  /// to the other joins exactly the dots whose hit circle the segment passes through,
  /// in order, as computed independently in floating point.
  func testStraightStrokesBetweenEveryPairOfDotsOnEveryGrid() throws {
    var ties = 0, pairs = 0
    for n in 3...7 {
      for options in [LayoutOptions(gridSize: n), LayoutOptions(panelWidth: 1080, panelHeight: 1920, gridSize: n)] {
        let l = try GridLayout(options)
        let r = Double(l.hitRadius.raw) / 65536
        func xy(_ d: Int) -> (Double, Double) {
          (Double(l.centre(of: d).x.raw) / 65536, Double(l.centre(of: d).y.raw) / 65536)
        }
        for a in 1...l.dotCount {
          for b in 1...l.dotCount where b != a {
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            var expected: [(Double, Int)] = []
            var tie = false
            for d in 1...l.dotCount {
              let (cx, cy) = xy(d)
              let dx = bx - ax, dy = by - ay
              let t = max(0, min(1, ((cx - ax) * dx + (cy - ay) * dy) / (dx * dx + dy * dy)))
              let px = ax + t * dx - cx, py = ay + t * dy - cy
              let distance = (px * px + py * py).squareRoot()
              // Lattice lines can pass exactly one hit radius from a dot, where floating
              // point cannot say which side it is on; the integer test says "outside".
              if abs(distance - r) < 0.001 { tie = true }
              if distance < r - 0.001 { expected.append((t, d)) }
            }
            let order = expected.sorted { $0.0 < $1.0 }.map(\.1)
            pairs += 1
            if tie {
              ties += 1
              continue
            }
            var f = Finger(l, minimumDots: 1)
            f.stroke([f.at(a), f.at(b)])
            XCTAssertEqual(dots(f.outcomes.first), order, "grid \(n) \(options.panelWidth)x\(options.panelHeight): \(a) -> \(b)")
          }
        }
      }
    }
    XCTAssertEqual(pairs, 2 * (72 + 240 + 600 + 1260 + 2352))
    XCTAssertLessThan(ties * 10, pairs, "too many boundary cases for this test to mean much")
  }

  func testLongGestureAllocatesNothingPerEvent() {
    var tracker = GestureTracker(layout: layout3)
    let centre = layout3.centre(of: 5)
    var events: [TouchEvent] = []
    events.reserveCapacity(20_002)
    events.append(TouchEvent(kind: .down, slot: 0, position: centre, timeMicroseconds: 0))
    for i in 0..<20_000 {
      // Circles around the grid, crossing every dot many times.
      let angle = Double(i) * 0.05
      let radius = Double(150 + (i % 100))
      let p = Point(
        x: centre.x + Fixed16(raw: Int32(radius * cos(angle) * 65536)),
        y: centre.y + Fixed16(raw: Int32(radius * sin(angle) * 65536)))
      events.append(TouchEvent(kind: i % 7 == 0 ? .frame : .motion, slot: i % 11 == 0 ? 1 : 0, position: p, timeMicroseconds: UInt64(i)))
    }
    events.append(TouchEvent(kind: .up, slot: 0, position: centre, timeMicroseconds: 30_000))
    // Warm up: the runtime instantiates type metadata lazily on first use.
    for event in events.prefix(100) { _ = tracker.handle(event) }
    tracker.reset()
    var finished = 0
    let allocations = events.withUnsafeBufferPointer { buffer in
      // A pointer loop: in debug builds `for in` over an Array allocates by itself.
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        if let outcome = tracker.handle(buffer[i]) { finished += outcome.dots.count }
        i += 1
      }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "the per-event path allocated")
    XCTAssertEqual(finished, 9, "the gesture should have joined every dot")
  }

  func testAllocationCounterSeesAllocations() {
    allocation_counter_start()
    let array = [Int](repeating: 1, count: 1000)
    let allocations = allocation_counter_stop()
    XCTAssertEqual(array.count, 1000)
    XCTAssertGreaterThan(allocations, 0, "the counter must notice a heap allocation")
  }
}
