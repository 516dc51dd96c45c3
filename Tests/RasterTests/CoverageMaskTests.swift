import PatternCore
import XCTest

@testable import Raster

/// A coverage mask must stand in for its shape exactly: the lock screen blends the
/// masks of its rings and dots instead of drawing them.
final class CoverageMaskTests: XCTestCase {
  private let width = 90, height = 70

  /// Circles and rings at fractional centres, partly off the canvas, in opaque and
  /// translucent colours over a gradient, drawn whole and under clips.
  private func maskMatchesShape<S: PixelStorage>(_ format: S.Type) {
    let rasterizer = Rasterizer(maximumWidth: width)
    let shapes: [(center: Point, radius: Double, stroke: Double?)] = [
      (Point(30.37, 25.81), 12, nil), (Point(45.5, 35.5), 20.3, 3), (Point(3.2, 66.9), 9.7, 2.25),
      (Point(70.01, 10.99), 1.4, nil), (Point(60.6, 40.2), 5, 12), (Point(44.0, 30.0), 36, 3),
    ]
    let colors = [Color(79, 195, 247), Color(150, 160, 175, 120), Color(255, 72, 72, 1)]
    let clips = [
      Rect(x: 0, y: 0, width: width, height: height), Rect(x: 20, y: 18, width: 17, height: 9),
      Rect(x: -5, y: 40, width: 60, height: 50),
    ]
    for shape in shapes {
      let radius = Fixed16(shape.radius)
      let mask = shape.stroke.map {
        CoverageMask(ringAt: shape.center, radius: radius, strokeWidth: Fixed16($0), rasterizer: rasterizer)
      } ?? CoverageMask(circleAt: shape.center, radius: radius, rasterizer: rasterizer)
      for color in colors {
        for clip in clips {
          var drawn = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
          var blitted = drawn
          let background = Rect(x: 0, y: 0, width: width, height: height)
          drawn.draw(S.self, rasterizer) { canvas in
            canvas.fillVerticalGradient(background, top: Color(16, 20, 28), bottom: Color(200, 6, 90), clip: background)
            if let stroke = shape.stroke {
              canvas.strokeCircle(center: shape.center, radius: radius, strokeWidth: Fixed16(stroke), color: color, clip: clip)
            } else {
              canvas.fillCircle(center: shape.center, radius: radius, color: color, clip: clip)
            }
          }
          blitted.draw(S.self, rasterizer) { canvas in
            canvas.fillVerticalGradient(background, top: Color(16, 20, 28), bottom: Color(200, 6, 90), clip: background)
            canvas.blit(mask, color: color, clip: clip)
          }
          if let i = drawn.bytes.indices.first(where: { drawn.bytes[$0] != blitted.bytes[$0] }) {
            XCTFail("\(S.format.name) \(shape) colour \(color) clip \(clip): mask differs from the shape at byte \(i) "
              + "(row \(i / drawn.bytesPerRow), column \((i % drawn.bytesPerRow) / S.bytesPerPixel))")
            return
          }
        }
      }
    }
  }

  func testBlittedMaskEqualsDrawnShapeXRGB8888() { maskMatchesShape(XRGB8888.self) }
  func testBlittedMaskEqualsDrawnShapeRGB565() { maskMatchesShape(RGB565.self) }

  /// Masks made once per place within a pixel and moved equal masks drawn at every
  /// centre: whole-pixel centres (one drawing), fractional ones that repeat by whole
  /// pixels, and ones that do not (each drawn).
  func testRepeatedMasksEqualMasksDrawnAtEachCentre() {
    let rasterizer = Rasterizer(maximumWidth: 200)
    let centres = [
      Point(40, 40), Point(136, 40), Point(40, 136), Point(136.25, 136), Point(232.25, 136.5), Point(40.25, 232.5),
      Point(41.75, 41.125), Point(-3, 7),
    ]
    let (radius, stroke) = (Fixed16(36), Fixed16(3))
    var drawn = 0
    let rings = CoverageMask.repeated(
      at: centres, box: { ShapeBounds.ring(center: $0, radius: radius, strokeWidth: stroke) },
      drawing: { centre in
        drawn += 1
        return CoverageMask(ringAt: centre, radius: radius, strokeWidth: stroke, rasterizer: rasterizer)
      })
    XCTAssertEqual(drawn, 4, "drawn once per place within a pixel: whole, (.25, 0), (.25, .5), (.75, .125)")
    for (centre, mask) in zip(centres, rings) {
      let fresh = CoverageMask(ringAt: centre, radius: radius, strokeWidth: stroke, rasterizer: rasterizer)
      XCTAssertEqual(mask.rect, fresh.rect, "ring at \(centre)")
      XCTAssertEqual(mask.bytes, fresh.bytes, "ring at \(centre)")
      XCTAssertEqual(mask.opaqueCore, fresh.opaqueCore, "ring at \(centre)")
    }
    let dots = CoverageMask.repeated(
      at: centres, box: { ShapeBounds.circle(center: $0, radius: Fixed16(12)) },
      drawing: { CoverageMask(circleAt: $0, radius: Fixed16(12), rasterizer: rasterizer) })
    for (centre, mask) in zip(centres, dots) {
      let fresh = CoverageMask(circleAt: centre, radius: Fixed16(12), rasterizer: rasterizer)
      XCTAssertEqual(mask.rect, fresh.rect, "dot at \(centre)")
      XCTAssertEqual(mask.bytes, fresh.bytes, "dot at \(centre)")
      XCTAssertEqual(mask.opaqueCore, fresh.opaqueCore, "dot at \(centre)")
    }
  }

  func testMaskCoversTheShapeBoxAndIsOpaqueInside() {
    let rasterizer = Rasterizer(maximumWidth: width)
    let center = Point(40.25, 30.75)
    let mask = CoverageMask(circleAt: center, radius: Fixed16(10), rasterizer: rasterizer)
    XCTAssertEqual(mask.rect, ShapeBounds.circle(center: center, radius: Fixed16(10)))
    XCTAssertEqual(mask.bytes.count, mask.rect.width * mask.rect.height)
    let inside = (30 - mask.rect.y) * mask.rect.width + (40 - mask.rect.x)
    XCTAssertEqual(mask.bytes[inside], 255)
    XCTAssertEqual(mask.bytes[0], 0, "the box's corner is outside the circle")
  }

  /// The opaque core is all 255 and as large as a square about the middle pixel
  /// can be; a ring (its middle a hole) has none.
  func testOpaqueCoreIsTheLargestOpaqueSquareAboutTheMiddle() {
    let rasterizer = Rasterizer(maximumWidth: width)
    for (center, radius) in [(Point(40.25, 30.75), 10.0), (Point(20.5, 20.5), 27), (Point(33.9, 31.1), 2.2)] {
      let mask = CoverageMask(circleAt: center, radius: Fixed16(radius), rasterizer: rasterizer)
      let core = mask.opaqueCore
      XCTAssertFalse(core.isEmpty, "a dot of radius \(radius) has an opaque middle")
      XCTAssertEqual(core.width, core.height)
      func byte(_ x: Int, _ y: Int) -> UInt8? {
        let (mx, my) = (x - mask.rect.x, y - mask.rect.y)
        guard mx >= 0 && mx < mask.rect.width && my >= 0 && my < mask.rect.height else { return nil }
        return mask.bytes[my * mask.rect.width + mx]
      }
      for y in core.y..<core.maxY { for x in core.x..<core.maxX { XCTAssertEqual(byte(x, y), 255) } }
      // One pixel more each side has a byte short of 255 on its border.
      let grown = Rect(x: core.x - 1, y: core.y - 1, width: core.width + 2, height: core.height + 2)
      var border: [UInt8?] = []
      for x in grown.x..<grown.maxX { border += [byte(x, grown.y), byte(x, grown.maxY - 1)] }
      for y in grown.y..<grown.maxY { border += [byte(grown.x, y), byte(grown.maxX - 1, y)] }
      XCTAssertTrue(border.contains { $0 != 255 }, "the core of radius \(radius) could grow")
    }
    let ring = CoverageMask(ringAt: Point(40, 30), radius: Fixed16(20), strokeWidth: Fixed16(3), rasterizer: rasterizer)
    XCTAssertTrue(ring.opaqueCore.isEmpty)
  }
}
