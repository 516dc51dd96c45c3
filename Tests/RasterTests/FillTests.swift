import PatternCore
import XCTest

@testable import Raster

final class FillTests: XCTestCase {
  func testGradientHitsBothEndColoursExactly() {
    let top = Color(10, 200, 30), bottom = Color(250, 0, 99)
    var buffer = TestBuffer(width: 8, height: 40, bytesPerPixel: 4)
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 8)) {
      $0.fillVerticalGradient(Rect(x: 0, y: 5, width: 8, height: 30), top: top, bottom: bottom, clip: $0.bounds)
    }
    XCTAssertEqual(XRGB8888.color(of: buffer.word(x: 3, y: 5, bytesPerPixel: 4)), top)
    XCTAssertEqual(XRGB8888.color(of: buffer.word(x: 3, y: 34, bytesPerPixel: 4)), bottom)
    XCTAssertEqual(buffer.word(x: 3, y: 4, bytesPerPixel: 4), 0xA5A5_A5A5, "above the rect")
    XCTAssertEqual(buffer.word(x: 3, y: 35, bytesPerPixel: 4), 0xA5A5_A5A5, "below the rect")
    var previous = -1
    for y in 5..<35 {
      let r = Int(XRGB8888.color(of: buffer.word(x: 0, y: y, bytesPerPixel: 4)).r)
      XCTAssertGreaterThanOrEqual(r, previous, "red rises monotonically, row \(y)")
      previous = r
    }
    let middle = XRGB8888.color(of: buffer.word(x: 0, y: 5 + 29 / 2, bytesPerPixel: 4))
    XCTAssertEqual(Int(middle.r), (10 * 15 + 250 * 14 + 14) / 29, "row 14 of 29 steps")
  }

  func testClippedGradientRowsMatchTheFullGradient() {
    let rect = Rect(x: 0, y: 0, width: 4, height: 50)
    var full = TestBuffer(width: 4, height: 50, bytesPerPixel: 2)
    var part = TestBuffer(width: 4, height: 50, bytesPerPixel: 2)
    let raster = Rasterizer(maximumWidth: 4)
    full.draw(RGB565.self, raster) { $0.fillVerticalGradient(rect, top: .black, bottom: .white, clip: $0.bounds) }
    part.draw(RGB565.self, raster) {
      $0.fillVerticalGradient(rect, top: .black, bottom: .white, clip: Rect(x: 0, y: 20, width: 4, height: 7))
    }
    for y in 20..<27 { XCTAssertEqual(part.word(x: 1, y: y, bytesPerPixel: 2), full.word(x: 1, y: y, bytesPerPixel: 2)) }
  }

  func testOpaqueFillCoversExactlyTheClippedRect() {
    var buffer = TestBuffer(width: 10, height: 10, bytesPerPixel: 4)
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 10)) {
      $0.fill(Rect(x: 2, y: 3, width: 50, height: 4), color: Color(1, 2, 3), clip: Rect(x: 0, y: 0, width: 7, height: 10))
    }
    for y in 0..<10 {
      for x in 0..<10 {
        let inside = x >= 2 && x < 7 && y >= 3 && y < 7
        XCTAssertEqual(buffer.word(x: x, y: y, bytesPerPixel: 4), inside ? 0xFF01_0203 : 0xA5A5_A5A5, "(\(x), \(y))")
      }
    }
  }

  func testMaskBlitScalesAlphaByCoverageAndClips() {
    let mask: [UInt8] = [0, 255, 128, 99, 255, 0, 7, 7, 64, 1, 2, 3]  // 3x2 inside a stride of 6
    var buffer = TestBuffer(width: 8, height: 8, bytesPerPixel: 4)
    let color = Color(200, 100, 50, 200)
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 8)) {
      $0.fill($0.bounds, color: .black, clip: $0.bounds)
      $0.blitMask(mask, offset: 1, width: 3, height: 2, stride: 6, x: 6, y: 3, color: color, clip: $0.bounds)
    }
    let black = XRGB8888.word(for: .black)
    func expected(_ coverage: UInt8) -> UInt32 {
      XRGB8888.blend(color, alpha: ChannelMath.effectiveAlpha(color.a, coverage: coverage), over: black)
    }
    XCTAssertEqual(buffer.word(x: 6, y: 3, bytesPerPixel: 4), expected(255))
    XCTAssertEqual(buffer.word(x: 7, y: 3, bytesPerPixel: 4), expected(128))
    XCTAssertEqual(buffer.word(x: 6, y: 4, bytesPerPixel: 4), expected(7))
    XCTAssertEqual(buffer.word(x: 7, y: 4, bytesPerPixel: 4), expected(64))
    XCTAssertEqual(buffer.word(x: 5, y: 3, bytesPerPixel: 4), black, "left of the mask")
    XCTAssertEqual(buffer.word(x: 6, y: 5, bytesPerPixel: 4), black, "below the mask")
  }
}
