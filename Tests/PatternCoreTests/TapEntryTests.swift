import AllocationCounter
import XCTest
@testable import PatternCore

/// Taps dot by dot (`input = tap` and `both`) through the gesture tracker, on the
/// 800x480 layout: dots 144 px apart, cells reaching halfway to the next dot.
final class TapEntryTests: XCTestCase {
  private let layout = try! GridLayout(LayoutOptions())

  private struct Hand {
    var tracker: GestureTracker
    var time: UInt64 = 0
    var outcomes: [GestureOutcome] = []

    init(_ layout: GridLayout, mode: InputMode) {
      tracker = GestureTracker(layout: layout, minimumDots: 4, inputMode: mode)
    }

    func at(_ dot: Int, dx: Int = 0, dy: Int = 0) -> Point {
      let c = tracker.layout.centre(of: dot)
      return Point(x: c.x + Fixed16(dx), y: c.y + Fixed16(dy))
    }

    mutating func send(_ kind: TouchEvent.Kind, _ p: Point, slot: Int32 = 0) {
      time += 50_000
      if let o = tracker.handle(TouchEvent(kind: kind, slot: slot, position: p, timeMicroseconds: time)) { outcomes.append(o) }
    }

    mutating func tap(_ dot: Int, dx: Int = 0, dy: Int = 0) {
      send(.down, at(dot, dx: dx, dy: dy))
      send(.up, at(dot, dx: dx, dy: dy))
      time += 300_000
    }

    mutating func stroke(_ points: [Point]) {
      send(.down, points[0])
      for p in points.dropFirst() { send(.motion, p) }
      send(.up, points.last!)
    }

    var shown: [Int] { (0..<tracker.shownTrail.count).map { tracker.shownTrail[$0] } }
  }

  private func dots(_ o: GestureOutcome?) -> [Int] {
    guard let o else { return [] }
    return (0..<o.dots.count).map { o.dots[$0] }
  }

  func testTapsJoinDotsAndTappingTheLastAgainConfirmsAtOnce() {
    for mode in [InputMode.tap, .both] {
      var h = Hand(layout, mode: mode)
      for dot in [1, 2, 3, 6] { h.tap(dot) }
      XCTAssertEqual(h.outcomes.count, 0, "\(mode)")
      XCTAssertEqual(h.shown, [1, 2, 3, 6], "\(mode)")
      XCTAssertNil(h.tracker.shownFinger, "\(mode): taps draw no line on to a finger")
      h.tap(6)
      XCTAssertEqual(h.outcomes.count, 1, "\(mode)")
      XCTAssertEqual(dots(h.outcomes.first), [1, 2, 3, 6], "\(mode)")
      XCTAssertEqual(h.outcomes.first?.result, .complete)
      XCTAssertEqual(h.outcomes.first?.timeMicroseconds, h.time - 300_000, "confirmed when the finger lifted")
      XCTAssertEqual(h.shown, [], "\(mode): the entry starts again")
      XCTAssertNil(h.tracker.taps.confirmationDue)
    }
  }

  func testATapAnywhereInTheCellCountsNotOnlyInTheHitCircle() {
    var h = Hand(layout, mode: .tap)
    // 60 px off the centre: twice the hit radius (28.8 px), still in dot 1's cell.
    h.tap(1, dx: 60, dy: 60)
    h.tap(5, dx: -70, dy: 70)
    h.tap(9, dx: 70, dy: 70)
    XCTAssertEqual(h.shown, [1, 5, 9])
    XCTAssertEqual(layout.dot(inCellAt: h.at(1, dx: 71, dy: 0)), 1)
    XCTAssertEqual(layout.dot(inCellAt: h.at(1, dx: 73, dy: 0)), 2, "past halfway to dot 2")
    XCTAssertEqual(layout.dot(inCellAt: h.at(1, dx: -95, dy: -95)), 1, "the outer cells reach the grid's edge")
    XCTAssertNil(layout.dot(inCellAt: Point(x: Fixed16(100), y: Fixed16(240))), "beside the grid is no cell")
  }

  func testTapsFillGapsAsADragDoes() {
    var h = Hand(layout, mode: .tap)
    h.tap(1)
    h.tap(3)
    XCTAssertEqual(h.shown, [1, 2, 3])
    h.tap(9)
    XCTAssertEqual(h.shown, [1, 2, 3, 6, 9])
    h.tap(7)
    XCTAssertEqual(h.shown, [1, 2, 3, 6, 9, 8, 7])
    // A knight's move fills nothing; across a joined dot nothing is joined twice.
    var k = Hand(layout, mode: .tap)
    k.tap(1)
    k.tap(6)
    XCTAssertEqual(k.shown, [1, 6])
  }

  func testTappingAnEarlierDotAgainChangesNothing() {
    var h = Hand(layout, mode: .tap)
    for dot in [1, 2, 3] { h.tap(dot) }
    h.tap(1)
    h.tap(2)
    XCTAssertEqual(h.shown, [1, 2, 3])
    XCTAssertEqual(h.outcomes.count, 0)
    h.tap(3)
    XCTAssertEqual(dots(h.outcomes.first), [1, 2, 3])
    XCTAssertEqual(h.outcomes.first?.result, .tooShort, "fewer than min-dots, as for a drag")
  }

  func testAPauseAfterTheLastTapConfirms() throws {
    var h = Hand(layout, mode: .tap)
    for dot in [7, 4, 1, 2] { h.tap(dot) }
    let due = try XCTUnwrap(h.tracker.taps.confirmationDue)
    XCTAssertEqual(due, h.time - 300_000 + TapEntry.pauseMicroseconds)
    XCTAssertNil(h.tracker.confirmTapsIfPaused(at: due - 1))
    let outcome = try XCTUnwrap(h.tracker.confirmTapsIfPaused(at: due + 5))
    XCTAssertEqual(dots(outcome), [7, 4, 1, 2])
    XCTAssertEqual(outcome.timeMicroseconds, due, "timed at the end of the pause")
    XCTAssertNil(h.tracker.confirmTapsIfPaused(at: due + 10), "confirmed once")
  }

  func testNoPauseConfirmsWhileAFingerIsDown() {
    var h = Hand(layout, mode: .tap)
    for dot in [1, 2, 3] { h.tap(dot) }
    h.send(.down, h.at(6))
    XCTAssertNil(h.tracker.taps.confirmationDue)
    XCTAssertNil(h.tracker.confirmTapsIfPaused(at: h.time + 10 * TapEntry.pauseMicroseconds))
    h.send(.up, h.at(6))
    XCTAssertEqual(h.shown, [1, 2, 3, 6])
    XCTAssertEqual(h.tracker.taps.confirmationDue, h.time + TapEntry.pauseMicroseconds, "the pause starts again at the lift")
  }

  func testInTapModeATouchThatSlidesIntoAnotherCellTapsNothing() {
    var h = Hand(layout, mode: .tap)
    h.tap(1)
    h.stroke([h.at(2), h.at(3)])
    XCTAssertEqual(h.shown, [1])
    XCTAssertEqual(h.outcomes.count, 0)
    XCTAssertNotNil(h.tracker.taps.confirmationDue, "the pause runs on")
  }

  /// Every stroke from one dot to another in `both` is a drag: never a tap, never
  /// mixed with the taps before it, whatever the dots.
  func testInBothModeADragIsNeverATap() {
    for from in 1...9 {
      for to in 1...9 where to != from {
        var h = Hand(layout, mode: .both)
        h.tap(5 == from ? 1 : 5)
        h.stroke([h.at(from), h.at(to)])
        XCTAssertEqual(h.outcomes.count, 1, "\(from)->\(to)")
        let joined = dots(h.outcomes.first)
        XCTAssertEqual(joined.first, from, "\(from)->\(to): a drag starts a new pattern")
        XCTAssertEqual(joined.last, to, "\(from)->\(to)")
        XCTAssertEqual(h.shown, [], "\(from)->\(to): the taps are dropped")
        XCTAssertNil(h.tracker.taps.confirmationDue)
      }
    }
  }

  func testInBothModeATouchThatStaysOnOneDotIsATap() {
    var h = Hand(layout, mode: .both)
    h.send(.down, h.at(5))
    XCTAssertEqual(h.shown, [5], "while down it may still become a drag: drawn as one")
    h.send(.motion, h.at(5, dx: 20, dy: -30))
    h.send(.up, h.at(5, dx: 20, dy: -30))
    XCTAssertEqual(h.outcomes.count, 0, "not a one-dot drag (too short)")
    XCTAssertEqual(h.shown, [5])
    XCTAssertNil(h.tracker.shownFinger)
    // Off the dot (outside its hit circle) a touch in `both` is no tap: only `tap` mode
    // takes the whole cell.
    h.tap(1, dx: 50, dy: 50)
    XCTAssertEqual(h.shown, [5])
    // The drag mode keeps a phone's rule: one dot is a too-short pattern.
    var d = Hand(layout, mode: .drag)
    d.tap(5)
    XCTAssertEqual(dots(d.outcomes.first), [5])
    XCTAssertEqual(d.outcomes.first?.result, .tooShort)
  }

  func testExtraFingersAreIgnored() {
    for mode in [InputMode.tap, .both] {
      var h = Hand(layout, mode: mode)
      h.send(.down, h.at(1), slot: 0)
      h.send(.down, h.at(5), slot: 1)
      h.send(.up, h.at(5), slot: 1)
      h.send(.up, h.at(1), slot: 0)
      h.send(.down, h.at(2), slot: 2)
      h.send(.up, h.at(2), slot: 2)
      h.send(.down, h.at(2), slot: 0)
      h.send(.down, h.at(9), slot: 1)
      h.send(.motion, h.at(8), slot: 1)
      h.send(.up, h.at(8), slot: 1)
      h.send(.up, h.at(2), slot: 0)
      XCTAssertEqual(h.outcomes.count, 1, "\(mode): the second tap on 2 confirms")
      XCTAssertEqual(dots(h.outcomes.first), [1, 2], "\(mode)")
    }
  }

  func testACancelledTouchTapsNothing() {
    var h = Hand(layout, mode: .tap)
    h.tap(1)
    h.send(.down, h.at(2))
    h.send(.cancel, h.at(2))
    XCTAssertEqual(h.shown, [1])
    XCTAssertEqual(h.tracker.taps.confirmationDue, h.time + TapEntry.pauseMicroseconds)
  }

  func testTapEntryAllocatesNothing() {
    var tracker = GestureTracker(layout: layout, minimumDots: 4, inputMode: .both)
    var events: [TouchEvent] = []
    var time: UInt64 = 0
    for dot in [1, 3, 9, 7, 7] {
      for kind in [TouchEvent.Kind.down, .up] {
        time += 100_000
        events.append(TouchEvent(kind: kind, slot: 0, position: layout.centre(of: dot), timeMicroseconds: time))
      }
    }
    var finished = 0
    let allocations = events.withUnsafeBufferPointer { buffer in
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        if let outcome = tracker.handle(buffer[i]) { finished += outcome.dots.count }
        i += 1
      }
      if let outcome = tracker.confirmTapsIfPaused(at: .max) { finished += outcome.dots.count }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "the tap path allocated")
    XCTAssertEqual(finished, 7, "1, 3, 9, 7 with the gaps filled, confirmed by tapping 7 again")
  }
}
