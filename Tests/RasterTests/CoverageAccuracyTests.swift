import PatternCore
import XCTest

@testable import Raster

/// Anti-aliasing against a 16x16-supersampled reference: mean error over the
/// shape's box at most 1 level, no pixel off by more than 8 of 255.
///
/// The sizes are the lock screen's: dots of radius 4 and more, rings of stroke 1
/// and more, lines 4 pixels wide and more. Round caps narrower than about 3
/// pixels exceed the budget at single pixels (the tangent-line model cannot see a
/// 1-pixel cap bend away inside one pixel); nothing on the screen is that thin.
final class CoverageAccuracyTests: XCTestCase {
  private func check(_ result: (mean: Double, max: Int, worst: String), _ label: String) {
    XCTAssertLessThanOrEqual(result.mean, 1.0, "\(label): mean error \(result.mean)")
    XCTAssertLessThanOrEqual(result.max, 8, result.worst)
  }

  func testFilledCirclesMatchSupersampledReference() {
    for radius in [4.0, 5.5, 7.3, 15.0, 31.6] {
      for (ox, oy) in [(0.0, 0.0), (0.5, 0.5), (0.25, 0.7), (0.37, 0.13)] {
        let size = Int(radius * 2) + 8
        let cx = Double(size) / 2 + ox, cy = Double(size) / 2 + oy
        let label = "circle r\(radius) at (\(cx), \(cy))"
        let result = coverageError(
          width: size, height: size, box: ShapeBounds.circle(center: Point(cx, cy), radius: Fixed16(radius)),
          label: label,
          draw: { $0.fillCircle(center: Point(cx, cy), radius: Fixed16(radius), color: .white, clip: $0.bounds) },
          inside: { x, y in (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius })
        check(result, label)
      }
    }
  }

  func testRingsMatchSupersampledReference() {
    for (radius, stroke) in [(6.0, 1.0), (10.0, 1.5), (12.3, 3.0), (24.0, 2.2), (30.5, 6.0), (5.0, 0.6)] {
      for (ox, oy) in [(0.0, 0.0), (0.5, 0.25), (0.31, 0.83)] {
        let size = Int(radius * 2 + stroke) + 8
        let cx = Double(size) / 2 + ox, cy = Double(size) / 2 + oy
        let outer = radius + stroke / 2, inner = radius - stroke / 2
        let label = "ring r\(radius) w\(stroke) at (\(cx), \(cy))"
        let result = coverageError(
          width: size, height: size,
          box: ShapeBounds.ring(center: Point(cx, cy), radius: Fixed16(radius), strokeWidth: Fixed16(stroke)),
          label: label,
          draw: {
            $0.strokeCircle(
              center: Point(cx, cy), radius: Fixed16(radius), strokeWidth: Fixed16(stroke), color: .white,
              clip: $0.bounds)
          },
          inside: { x, y in
            let d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
            return d2 <= outer * outer && d2 >= inner * inner
          })
        check(result, label)
      }
    }
  }

  func testLinesAtSeveralAnglesAndWidthsMatchSupersampledReference() {
    let size = 48
    for degrees in [0.0, 45.0, 30.0, 2.0, 90.0, 63.0] {
      for width in [4.0, 6.0, 9.5, 12.0] {
        for (ox, oy) in [(0.0, 0.0), (0.5, 0.5), (0.3, 0.77)] {
          let angle = degrees * Double.pi / 180
          let length = 30.0
          let ax = 24 + ox - cos(angle) * length / 2, ay = 24 + oy - sin(angle) * length / 2
          let bx = ax + cos(angle) * length, by = ay + sin(angle) * length
          let label = "line \(degrees)deg w\(width) from (\(ax), \(ay))"
          let result = coverageError(
            width: size, height: size,
            box: ShapeBounds.polyline([Point(ax, ay), Point(bx, by)], width: Fixed16(width)), label: label,
            draw: {
              $0.strokePolyline([Point(ax, ay), Point(bx, by)], width: Fixed16(width), color: .white, clip: $0.bounds)
            },
            inside: { x, y in distanceToSegment(x, y, ax, ay, bx, by) <= width / 2 })
          check(result, label)
        }
      }
    }
  }

  func testRampIsFullBeyondTheEdgeReachForEveryDirection() {
    let rasterizer = Rasterizer(maximumWidth: 1)
    for angle in 0...Rasterizer.angleSteps {
      XCTAssertEqual(rasterizer.edgeCoverage(Rasterizer.edgeReach, angle: angle), Rasterizer.fullCoverage, "angle \(angle)")
      XCTAssertEqual(rasterizer.edgeCoverage(-Rasterizer.edgeReach, angle: angle), 0, "angle \(angle)")
      XCTAssertEqual(rasterizer.edgeCoverage(0, angle: angle), Rasterizer.fullCoverage / 2, "angle \(angle)")
    }
  }

  func testRampGrowsMonotonicallyWithDistanceInside() {
    let rasterizer = Rasterizer(maximumWidth: 1)
    for angle in 0...Rasterizer.angleSteps {
      var previous: Int32 = -1
      var t: Int64 = -3000
      while t <= 3000 {
        let c = rasterizer.edgeCoverage(t, angle: angle)
        XCTAssertGreaterThanOrEqual(c, previous, "angle \(angle) t \(t)")
        previous = c
        t += 7
      }
    }
  }
}
