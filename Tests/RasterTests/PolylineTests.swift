import PatternCore
import XCTest

@testable import Raster

final class PolylineTests: XCTestCase {
  private let background = Color(20, 40, 60)
  private let ink = Color(250, 200, 100, 128)

  private func draw(_ body: (Canvas<XRGB8888>) -> Void) -> TestBuffer {
    var buffer = TestBuffer(width: 64, height: 64, bytesPerPixel: 4)
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 64)) { canvas in
      canvas.fill(canvas.bounds, color: background, clip: canvas.bounds)
      body(canvas)
    }
    return buffer
  }

  private var singleBlend: UInt32 { XRGB8888.blend(ink, alpha: UInt32(ink.a), over: XRGB8888.word(for: background)) }

  func testTranslucentVShapeBlendsOnceAtTheJoin() {
    let buffer = draw { $0.strokePolyline([Point(8, 8), Point(32, 52), Point(56, 8)], width: Fixed16(10), color: ink, clip: $0.bounds) }
    XCTAssertEqual(buffer.word(x: 32, y: 50, bytesPerPixel: 4), singleBlend, "join")
    XCTAssertEqual(buffer.word(x: 31, y: 47, bytesPerPixel: 4), singleBlend, "inside of the join")
    XCTAssertEqual(buffer.word(x: 20, y: 30, bytesPerPixel: 4), singleBlend, "arm")
  }

  func testSelfCrossingPolylineBlendsOnceAtTheCrossing() {
    let points = [Point(8, 8), Point(56, 56), Point(56, 8), Point(8, 56)]
    let buffer = draw { $0.strokePolyline(points, width: Fixed16(8), color: ink, clip: $0.bounds) }
    XCTAssertEqual(buffer.word(x: 31, y: 31, bytesPerPixel: 4), singleBlend, "crossing")
    XCTAssertEqual(buffer.word(x: 32, y: 32, bytesPerPixel: 4), singleBlend, "crossing")
    // Drawing the segments one by one does blend twice there: the test can tell.
    let separate = draw { c in
      for i in 0..<3 { c.strokePolyline([points[i], points[i + 1]], width: Fixed16(8), color: ink, clip: c.bounds) }
    }
    XCTAssertNotEqual(separate.word(x: 31, y: 31, bytesPerPixel: 4), singleBlend)
  }

  /// Coverage 0-255 of a pixel for an opaque white polyline on black.
  private func coverage(_ points: [Point], width: Double, at x: Int, _ y: Int) -> Int {
    var buffer = TestBuffer(width: 64, height: 64, bytesPerPixel: 4)
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 64)) { c in
      c.fill(c.bounds, color: .black, clip: c.bounds)
      c.strokePolyline(points, width: Fixed16(width), color: .white, clip: c.bounds)
    }
    return Int(buffer.word(x: x, y: y, bytesPerPixel: 4) & 0xFF)
  }

  func testCapsAreRoundNotSquare() {
    // Horizontal line from x = 20 to 44 at y = 32, 12 wide: the cap is a half disc of radius 6.
    let line = [Point(20, 32), Point(44, 32)]
    XCTAssertEqual(coverage(line, width: 12, at: 15, 31), 255, "on the axis, 4.5 px before the end: inside the cap")
    XCTAssertEqual(coverage(line, width: 12, at: 15, 26), 0, "corner a square cap would fill")
    XCTAssertEqual(coverage(line, width: 12, at: 48, 37), 0, "far corner a square cap would fill")
    XCTAssertEqual(coverage(line, width: 12, at: 12, 31), 0, "beyond the cap")
    XCTAssertLessThanOrEqual(coverage(line, width: 12, at: 13, 31), 2, "just beyond the cap's tip")
    let edge = coverage(line, width: 12, at: 14, 31)
    XCTAssertGreaterThan(edge, 0, "the cap's tip is anti-aliased")
    XCTAssertLessThan(edge, 255, "the cap's tip is anti-aliased")
  }

  func testJoinsAreRoundNotMitred() {
    // A right angle at (32, 40): a round join reaches 5 px beyond the corner
    // diagonally; a miter would reach 7.07 px.
    let corner = [Point(12, 40), Point(32, 40), Point(32, 12)]
    XCTAssertEqual(coverage(corner, width: 10, at: 34, 41), 255, "inside the round join")
    XCTAssertEqual(coverage(corner, width: 10, at: 36, 44), 0, "miter corner stays empty")
  }

  func testSinglePointDrawsARoundDot() {
    XCTAssertEqual(coverage([Point(32, 32)], width: 10, at: 31, 31), 255)
    XCTAssertEqual(coverage([Point(32, 32)], width: 10, at: 27, 27), 0, "outside radius 5 on the diagonal")
  }
}
