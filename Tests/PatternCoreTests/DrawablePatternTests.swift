import XCTest
@testable import PatternCore

/// A typed pattern is drawable exactly when a finger drawing its dots in order joins
/// those dots and no others: `firstPassedOverDot` against the gesture tracker itself.
final class DrawablePatternTests: XCTestCase {
  /// Drags in small steps from the centre of `from` to the centre of `to` and returns
  /// what the tracker joined.
  private func drawn(_ from: Int, _ to: Int, on layout: GridLayout) -> [Int] {
    var tracker = GestureTracker(layout: layout, minimumDots: 1, inputMode: .drag)
    let a = layout.centre(of: from), b = layout.centre(of: to)
    var time: UInt64 = 0
    var outcome: GestureOutcome?
    func send(_ kind: TouchEvent.Kind, _ p: Point) {
      time += 10_000
      if let o = tracker.handle(TouchEvent(kind: kind, slot: 0, position: p, timeMicroseconds: time)) { outcome = o }
    }
    send(.down, a)
    let steps = 64
    for k in 1...steps {
      let x = a.x.raw + (b.x.raw - a.x.raw) * Int32(k) / Int32(steps)
      let y = a.y.raw + (b.y.raw - a.y.raw) * Int32(k) / Int32(steps)
      send(.motion, Point(x: Fixed16(raw: x), y: Fixed16(raw: y)))
    }
    send(.up, b)
    guard let dots = outcome?.dots else { return [] }
    return (0..<dots.count).map { dots[$0] }
  }

  func testEveryTwoDotMoveIsDrawableExactlyWhenTheTrackerJoinsNothingBetween() throws {
    for gridSize in [3, 4] {
      let layout = try GridLayout(LayoutOptions(gridSize: gridSize))
      let dots = gridSize * gridSize
      var refused = 0
      for from in 1...dots {
        for to in 1...dots where to != from {
          let joined = drawn(from, to, on: layout)
          XCTAssertEqual(joined.first, from, "\(gridSize)x\(gridSize): \(from)->\(to)")
          XCTAssertEqual(joined.last, to, "\(gridSize)x\(gridSize): \(from)->\(to)")
          let typed = DotSequence([from, to])
          if let found = typed.firstPassedOverDot(gridSize: gridSize) {
            refused += 1
            XCTAssertGreaterThan(joined.count, 2, "\(from)->\(to): refused, but drawing joins nothing between")
            XCTAssertEqual(found.move.from, from)
            XCTAssertEqual(found.move.to, to)
            XCTAssertEqual(found.passedOver, joined.count > 1 ? joined[1] : -1, "\(from)->\(to): the dot named is the first drawing adds")
          } else {
            XCTAssertEqual(joined, [from, to], "\(gridSize)x\(gridSize): \(from)->\(to) accepted, but drawing it joins \(joined)")
          }
          var filled = DotSequence()
          filled.join(from, gridSize: gridSize)
          filled.join(to, gridSize: gridSize)
          XCTAssertEqual((0..<filled.count).map { filled[$0] }, joined, "the grid-size gap fill is the tracker's")
        }
      }
      if gridSize == 3 { XCTAssertEqual(refused, 16, "on 3x3 the rows, columns and diagonals across the middle, both ways") }
    }
  }

  func testAPassedOverDotAlreadyJoinedIsFine() {
    XCTAssertNil(DotSequence([2, 1, 3, 6]).firstPassedOverDot(gridSize: 3), "1->3 passes 2, already joined")
    XCTAssertNil(DotSequence([5, 1, 9, 6]).firstPassedOverDot(gridSize: 3), "1->9 passes 5, already joined")
    let found = DotSequence([1, 3, 9, 7]).firstPassedOverDot(gridSize: 3)
    XCTAssertEqual(found?.move.from, 1)
    XCTAssertEqual(found?.move.to, 3)
    XCTAssertEqual(found?.passedOver, 2)
    let later = DotSequence([1, 2, 3, 9, 7]).firstPassedOverDot(gridSize: 3)
    XCTAssertEqual(later?.passedOver, 6, "the first move that passes over an unjoined dot is named")
  }
}
