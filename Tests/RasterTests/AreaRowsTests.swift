import PatternCore
import XCTest

@testable import Raster

/// `CapsuleSegment.narrowRows(toColumnsOf:)` drops the rows on which a segment's
/// capsule misses an area's columns; a dropped row that had a cut in the area would
/// leave pixels of a clipped redraw undrawn, so every such row must be kept.
final class AreaRowsTests: XCTestCase {
  func testNarrowedRowsKeepEveryRowWithACutInTheArea() {
    var random = SeededRandom(state: 0xA4EA_0012)
    var dropped = 0
    for _ in 0..<2000 {
      // Segments across a 1920x1080 panel at 1/4096 px, radii 1/16 to 32 px, and
      // damage-sized areas anywhere on it.
      let ax = random.int(0...7_800_000), ay = random.int(0...4_400_000)
      let bx = ax &+ random.int(-1_500_000...1_500_000), by = ay &+ random.int(-1_500_000...1_500_000)
      let radius = random.int(256...131_072)
      let segment = Canvas<XRGB8888>.segment(
        from: Point(x: Fixed16(raw: Int32(ax << 4)), y: Fixed16(raw: Int32(ay << 4))),
        to: Point(x: Fixed16(raw: Int32(bx << 4)), y: Fixed16(raw: Int32(by << 4))),
        width: Fixed16(raw: Int32(2 * radius << 4)))
      let area = Rect(
        x: Int(random.int(0...1900)), y: Int(random.int(0...1060)),
        width: Int(random.int(1...400)), height: Int(random.int(1...400)))
      var narrowed = segment
      narrowed.narrowRows(toColumnsOf: area)
      let top = max(segment.firstRow, area.y), bottom = max(top, min(segment.endRow, area.maxY))
      for y in top..<bottom {
        let cut = segment.pixelColumns(atY: SubPixel.centre(y), within: area)
        if y >= narrowed.firstRow && y < narrowed.endRow { continue }
        dropped += 1
        XCTAssertNil(
          cut, "segment (\(ax), \(ay))-(\(bx), \(by)) Q12, radius \(radius), area \(area): row \(y) dropped "
            + "but has a cut in the area")
      }
    }
    // The narrowing must actually drop rows, or this test checks nothing.
    XCTAssertGreaterThan(dropped, 10_000)
  }
}
