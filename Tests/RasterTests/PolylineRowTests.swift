import PatternCore
import XCTest

@testable import Raster

/// A polyline row is blended in pieces (each capsule's full run straight onto the
/// canvas at the colour's opacity, the rest from the coverage row), and the result
/// must be the per-pixel definition: every pixel blended once at the largest
/// coverage any segment's capsule gives it.
final class PolylineRowTests: XCTestCase {
  private let width = 72, height = 56

  /// The per-pixel definition: `max` over the segments of each capsule's coverage,
  /// blended once with `blendPixel`, inside the polyline's box and the clip.
  private func drawPerPixel<S: PixelStorage>(
    _ points: [Point], lineWidth: Fixed16, color: Color, clip: Rect, on canvas: Canvas<S>
  ) {
    var segments: [CapsuleSegment] = []
    for i in 1..<points.count { segments.append(Canvas<S>.segment(from: points[i - 1], to: points[i], width: lineWidth)) }
    if segments.isEmpty { segments.append(Canvas<S>.segment(from: points[0], to: points[0], width: lineWidth)) }
    let radius = SubPixel.from(lineWidth) / 2
    let area = ShapeBounds.polyline(points, width: lineWidth).intersection(clip).intersection(canvas.bounds)
    for y in area.y..<max(area.y, area.maxY) {
      for x in area.x..<area.maxX {
        var best: UInt32 = 0
        for segment in segments {
          let c = segment.coverage(px: SubPixel.centre(x), py: SubPixel.centre(y), radius: radius, rasterizer: canvas.rasterizer)
          if c > 0 { best = max(best, Rasterizer.coverageByte(c)) }
        }
        canvas.blendPixel(x: x, y: y, color: color, coverage: best)
      }
    }
  }

  private func matchesPerPixel<S: PixelStorage>(_ format: S.Type) {
    let rasterizer = Rasterizer(maximumWidth: width)
    let lines: [(points: [Point], width: Double)] = [
      ([Point(8, 8), Point(60, 48), Point(62, 6), Point(6, 50)], 9),  // crossings: full runs meet edges
      ([Point(10.3, 30.7), Point(36.2, 30.9), Point(36.6, 10.1), Point(36.4, 50.2)], 14.5),  // doubling back
      ([Point(20, 20), Point(50, 21), Point(21, 22)], 6.25),  // a hairpin: two full runs overlap
      ([Point(5, 5), Point(66, 50)], 1.5),  // thin: no full runs at all
      ([Point(36.5, 28.25)], 20),  // one point: a dot
      ([Point(-10, 20), Point(40, 70), Point(90, 0)], 30),  // wide, off the canvas
    ]
    let colors = [Color(79, 195, 247), Color(32, 210, 254, 128), Color(255, 72, 72, 3)]
    let clips = [
      Rect(x: 0, y: 0, width: width, height: height), Rect(x: 17, y: 9, width: 23, height: 30),
      Rect(x: 35, y: 0, width: 2, height: height),
    ]
    let background = Rect(x: 0, y: 0, width: width, height: height)
    for line in lines {
      for color in colors {
        for clip in clips {
          var drawn = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
          drawn.draw(S.self, rasterizer) {
            $0.fillVerticalGradient(background, top: Color(16, 20, 28), bottom: Color(200, 6, 90), clip: background)
          }
          var reference = drawn
          drawn.draw(S.self, rasterizer) {
            $0.strokePolyline(line.points, width: Fixed16(line.width), color: color, clip: clip)
          }
          reference.draw(S.self, rasterizer) {
            drawPerPixel(line.points, lineWidth: Fixed16(line.width), color: color, clip: clip, on: $0)
          }
          if let i = drawn.bytes.indices.first(where: { drawn.bytes[$0] != reference.bytes[$0] }) {
            XCTFail("\(S.format.name) \(line) colour \(color) clip \(clip): polyline differs from the per-pixel "
              + "maximum at row \(i / drawn.bytesPerRow), column \((i % drawn.bytesPerRow) / S.bytesPerPixel)")
            return
          }
        }
      }
    }
  }

  func testPolylineRowsEqualPerPixelMaximumCoverageXRGB8888() { matchesPerPixel(XRGB8888.self) }
  func testPolylineRowsEqualPerPixelMaximumCoverageRGB565() { matchesPerPixel(RGB565.self) }

  func testSharedRowCutsEqualSeparateSpans() {
    let ends: [(Point, Point)] = [
      (Point(5, 5), Point(40, 30)), (Point(40.7, 3.2), Point(2.1, 50.9)), (Point(10, 20), Point(50, 20)),
      (Point(20.5, 4), Point(20.5, 44)), (Point(30.25, 30.75), Point(30.25, 30.75)), (Point(3, 40), Point(60, 39.5)),
    ]
    for width in [1.0, 6.5, 22.5] {
      for (a, b) in ends {
        let segment = Canvas<XRGB8888>.segment(from: a, to: b, width: Fixed16(width))
        for y in segment.firstRow..<segment.endRow {
          let cy = SubPixel.centre(y)
          let shared = segment.spans(atY: cy)
          let outer = segment.span(atY: cy, radius: segment.outerRadius, widen: true)
          let inner = segment.span(atY: cy, radius: segment.innerRadius, widen: false)
          XCTAssert(shared.outer?.low == outer?.low && shared.outer?.high == outer?.high, "\(a)-\(b) w\(width) row \(y): outer")
          XCTAssert(shared.inner?.low == inner?.low && shared.inner?.high == inner?.high, "\(a)-\(b) w\(width) row \(y): inner")
        }
      }
    }
  }

  func testFullRunsMergeWhenTheyOverlapOrTouch() {
    let rasterizer = Rasterizer(maximumWidth: 10, maximumPolylinePoints: 8)
    let runs = [(30, 40), (2, 5), (38, 45), (5, 9), (50, 51), (12, 13)]
    for (i, run) in runs.enumerated() { rasterizer.setFullRun(start: run.0, end: run.1, at: i) }
    let count = rasterizer.mergeFullRuns(count: runs.count)
    let merged = (0..<count).map { rasterizer.fullRun(at: $0) }
    XCTAssertEqual(merged.map { [$0.start, $0.end] }, [[2, 9], [12, 13], [30, 45], [50, 51]])
  }
}
