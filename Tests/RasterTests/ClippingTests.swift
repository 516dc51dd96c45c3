import PatternCore
import XCTest

@testable import Raster

final class ClippingTests: XCTestCase {
  private let width = 64, height = 60

  private func clippedMatchesCroppedFull<S: PixelStorage>(_ format: S.Type) {
    let rasterizer = Rasterizer(maximumWidth: width)
    var full = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
    full.draw(S.self, rasterizer) { TestScene().draw(on: $0, clip: $0.bounds) }
    let untouched = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
    let clips = [
      Rect(x: 5, y: 7, width: 20, height: 13), Rect(x: 29, y: 25, width: 3, height: 40),
      Rect(x: -10, y: -4, width: 30, height: 30), Rect(x: 40, y: 1, width: 1, height: 1),
      Rect(x: 0, y: 30, width: 64, height: 1),
    ]
    for clip in clips {
      var clipped = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
      clipped.draw(S.self, rasterizer) { TestScene().draw(on: $0, clip: clip) }
      let inside = clip.intersection(Rect(x: 0, y: 0, width: width, height: height))
      for i in 0..<clipped.bytes.count {
        let y = i / clipped.bytesPerRow, column = (i % clipped.bytesPerRow) / S.bytesPerPixel
        let inClip = column < width && column >= inside.x && column < inside.maxX && y >= inside.y && y < inside.maxY
        let expected = inClip ? full.bytes[i] : untouched.bytes[i]
        if clipped.bytes[i] != expected {
          XCTFail("\(S.format.name) clip \(clip): byte \(i) (row \(y), column \(column)) is \(clipped.bytes[i]), want \(expected)")
          break
        }
      }
    }
  }

  func testClippedDrawingEqualsFullDrawingCroppedXRGB8888() { clippedMatchesCroppedFull(XRGB8888.self) }
  func testClippedDrawingEqualsFullDrawingCroppedRGB565() { clippedMatchesCroppedFull(RGB565.self) }

  private func paddingUntouched<S: PixelStorage>(_ format: S.Type) {
    let rasterizer = Rasterizer(maximumWidth: width)
    var buffer = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel, padding: 20)
    buffer.draw(S.self, rasterizer) { canvas in
      TestScene().draw(on: canvas, clip: Rect(x: -100, y: -100, width: 400, height: 400))
      // Shapes hanging off every side.
      canvas.fillCircle(center: Point(63.9, 0.5), radius: Fixed16(9), color: .white, clip: canvas.bounds)
      canvas.strokePolyline(
        [Point(-5, 30), Point(70, 31), Point(70, 70)], width: Fixed16(7), color: .white, clip: canvas.bounds)
      canvas.blitMask(TestScene.mask, width: 9, height: 7, stride: 9, x: 60, y: 57, color: .white, clip: canvas.bounds)
    }
    var written = 0
    for y in 0..<height {
      for i in (width * S.bytesPerPixel)..<buffer.bytesPerRow {
        XCTAssertEqual(buffer.bytes[y * buffer.bytesPerRow + i], TestBuffer.marker, "\(S.format.name) row \(y) padding byte \(i)")
      }
      for i in 0..<(width * S.bytesPerPixel) where buffer.bytes[y * buffer.bytesPerRow + i] != TestBuffer.marker {
        written += 1
      }
    }
    XCTAssertGreaterThan(written, width * height, "the scene should cover the canvas")
  }

  func testStridePaddingIsNeverWrittenXRGB8888() { paddingUntouched(XRGB8888.self) }
  func testStridePaddingIsNeverWrittenRGB565() { paddingUntouched(RGB565.self) }

  func testNothingIsDrawnOutsideTheShapeBox() {
    let rasterizer = Rasterizer(maximumWidth: width)
    var buffer = TestBuffer(width: width, height: height, bytesPerPixel: 4)
    let center = Point(30.3, 29.8)
    let box = ShapeBounds.ring(center: center, radius: Fixed16(14.2), strokeWidth: Fixed16(3.3))
    buffer.draw(XRGB8888.self, rasterizer) {
      $0.strokeCircle(center: center, radius: Fixed16(14.2), strokeWidth: Fixed16(3.3), color: .white, clip: $0.bounds)
    }
    var maxOutsideTouched = false
    for y in 0..<height {
      for x in 0..<width where buffer.word(x: x, y: y, bytesPerPixel: 4) != 0xA5A5_A5A5 {
        let inBox = x >= box.x && x < box.maxX && y >= box.y && y < box.maxY
        XCTAssertTrue(inBox, "pixel (\(x), \(y)) written outside \(box)")
        if x == box.x || x == box.maxX - 1 { maxOutsideTouched = true }
      }
    }
    XCTAssertTrue(maxOutsideTouched, "the box should be tight enough that its edge columns are drawn")
  }
}
