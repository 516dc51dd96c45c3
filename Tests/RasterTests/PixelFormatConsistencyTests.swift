import PatternCore
import XCTest

@testable import Raster

final class PixelFormatConsistencyTests: XCTestCase {
  func testDivide255IsExactlyRoundedOverItsWholeRange() {
    for x in UInt32(0)...(255 * 255) {
      let want = UInt32((Double(x) / 255).rounded())
      if ChannelMath.divide255(x) != want {
        XCTFail("divide255(\(x)) = \(ChannelMath.divide255(x)), want \(want)")
        return
      }
    }
  }

  func testBlendIsTheRoundedSourceOverForEveryAlpha() {
    for alpha in UInt32(0)...255 {
      for (s, d) in [(0, 255), (255, 0), (17, 201), (128, 127), (90, 90)] as [(UInt32, UInt32)] {
        let want = UInt32(((Double(s) * Double(alpha) + Double(d) * Double(255 - alpha)) / 255).rounded())
        XCTAssertEqual(ChannelMath.blend(s, over: d, alpha: alpha), want, "s \(s) d \(d) alpha \(alpha)")
      }
    }
  }

  func testPackedXRGB8888BlendEqualsPerChannelBlend() {
    let colors = [Color(0, 0, 0), Color(255, 255, 255), Color(13, 200, 77), Color(255, 0, 128)]
    let words: [UInt32] = [0, 0xFFFF_FFFF, 0x0012_3456, 0xFF80_7F01]
    for color in colors {
      for word in words {
        for alpha in UInt32(0)...255 {
          let got = XRGB8888.color(of: XRGB8888.blend(color, alpha: alpha, over: word))
          let d = XRGB8888.color(of: word)
          let want = Color(
            UInt8(ChannelMath.blend(UInt32(color.r), over: UInt32(d.r), alpha: alpha)),
            UInt8(ChannelMath.blend(UInt32(color.g), over: UInt32(d.g), alpha: alpha)),
            UInt8(ChannelMath.blend(UInt32(color.b), over: UInt32(d.b), alpha: alpha)))
          XCTAssertEqual(got, want, "\(color) over \(word) at \(alpha)")
        }
      }
    }
  }

  func testRGB565ChannelsSurviveExpandAndQuantise() {
    for v in UInt32(0)..<32 { XCTAssertEqual(ChannelMath.quantize5(ChannelMath.expand5(v)), v) }
    for v in UInt32(0)..<64 { XCTAssertEqual(ChannelMath.quantize6(ChannelMath.expand6(v)), v) }
    for word in UInt16.min...UInt16.max {
      if RGB565.word(for: RGB565.color(of: word)) != word {
        XCTFail("565 word \(word) does not round-trip")
        return
      }
    }
  }

  /// Draws the same shapes in both formats onto a background both can hold.
  private func drawBoth(_ body: (Canvas<XRGB8888>) -> Void, _ body565: (Canvas<RGB565>) -> Void)
    -> (TestBuffer, TestBuffer)
  {
    let rasterizer = Rasterizer(maximumWidth: 64)
    let background = RGB565.color(of: RGB565.word(for: Color(30, 90, 160)))
    var wide = TestBuffer(width: 64, height: 60, bytesPerPixel: 4)
    var narrow = TestBuffer(width: 64, height: 60, bytesPerPixel: 2)
    wide.draw(XRGB8888.self, rasterizer) { $0.fill($0.bounds, color: background, clip: $0.bounds); body($0) }
    narrow.draw(RGB565.self, rasterizer) { $0.fill($0.bounds, color: background, clip: $0.bounds); body565($0) }
    return (wide, narrow)
  }

  func testOneLayerInRGB565IsExactlyTheQuantisedXRGB8888Layer() {
    let trail = [Point(5.5, 5.2), Point(58.3, 30.7), Point(8.1, 55.9)]
    func shapes<S: PixelStorage>(_ c: Canvas<S>) {
      c.strokePolyline(trail, width: Fixed16(6.5), color: Color(255, 240, 10, 150), clip: c.bounds)
    }
    let (wide, narrow) = drawBoth(shapes, shapes)
    var differing = 0
    for y in 0..<60 {
      for x in 0..<64 {
        let want = RGB565.word(for: XRGB8888.color(of: wide.word(x: x, y: y, bytesPerPixel: 4)))
        let got = UInt16(narrow.word(x: x, y: y, bytesPerPixel: 2))
        XCTAssertEqual(got, want, "pixel (\(x), \(y))")
        if want != RGB565.word(for: Color(30, 90, 160)) { differing += 1 }
      }
    }
    XCTAssertGreaterThan(differing, 200, "the polyline should change many pixels")
  }

  func testLayeredRGB565StaysWithinOneStepOfXRGB8888() {
    func shapes<S: PixelStorage>(_ c: Canvas<S>) { TestScene().draw(on: c, clip: c.bounds) }
    let (wide, narrow) = drawBoth(shapes, shapes)
    for y in 0..<60 {
      for x in 0..<64 {
        let w = XRGB8888.color(of: wide.word(x: x, y: y, bytesPerPixel: 4))
        let n = UInt32(narrow.word(x: x, y: y, bytesPerPixel: 2))
        let steps = [
          (Int(ChannelMath.quantize5(UInt32(w.r))), Int(n >> 11)),
          (Int(ChannelMath.quantize6(UInt32(w.g))), Int((n >> 5) & 63)),
          (Int(ChannelMath.quantize5(UInt32(w.b))), Int(n & 31)),
        ]
        for (want, got) in steps { XCTAssertLessThanOrEqual(abs(want - got), 1, "pixel (\(x), \(y)): \(w) vs \(n)") }
      }
    }
  }
}
