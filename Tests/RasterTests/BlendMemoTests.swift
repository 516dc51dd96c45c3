import PatternCore
import XCTest

@testable import Raster

/// A remembered blend is the blend: mask blits through one rasterizer's memos, in
/// more colours than it has memos, over backgrounds that change under them (solid,
/// noise, a gradient, earlier blits), in both formats in turn, give the bytes of
/// blending every mask byte with `blendPixel`.
final class BlendMemoTests: XCTestCase {
  private let width = 64, height = 48

  func testMemoisedBlitsEqualPerPixelBlends() {
    let rasterizer = Rasterizer(maximumWidth: width)
    var random = SeededRandom(state: 0xB1E2_D3E4)
    func byte() -> UInt8 { UInt8(random.int(0...255)) }
    let masks = [
      CoverageMask(ringAt: Point(30.37, 22.81), radius: Fixed16(17.2), strokeWidth: Fixed16(3.5), rasterizer: rasterizer),
      CoverageMask(circleAt: Point(31.5, 24.25), radius: Fixed16(9.7), rasterizer: rasterizer),
      CoverageMask(circleAt: Point(6.1, 40.9), radius: Fixed16(11), rasterizer: rasterizer),
    ]
    let colors = (0..<6).map { _ in Color(r: byte(), g: byte(), b: byte()) } + [Color(r: byte(), g: byte(), b: byte())]
    func check<S: PixelStorage>(_ format: S.Type, trial: Int) {
      var memoised = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
      let all = Rect(x: 0, y: 0, width: width, height: height)
      let background = Color(r: byte(), g: byte(), b: byte())
      memoised.draw(S.self, rasterizer) { canvas in
        switch trial % 3 {
        case 0: canvas.fill(all, color: background, clip: all)
        case 1: canvas.fillVerticalGradient(all, top: background, bottom: Color(r: byte(), g: byte(), b: byte()), clip: all)
        default:
          for y in 0..<height {
            for x in 0..<width where random.next() % 3 != 0 {
              canvas.store(S.word(for: Color(r: byte(), g: byte(), b: byte())), x, y)
            }
          }
        }
      }
      var reference = memoised
      for _ in 0..<8 {
        let mask = masks[Int(random.next() % UInt64(masks.count))]
        let color = colors[Int(random.next() % UInt64(colors.count))]
        let clip = random.next() % 2 == 0
          ? all : Rect(x: Int(random.int(0...30)), y: Int(random.int(0...20)), width: 30, height: 25)
        memoised.draw(S.self, rasterizer) { canvas in canvas.blit(mask, color: color, clip: clip) }
        reference.draw(S.self, Rasterizer(maximumWidth: width)) { canvas in
          let area = mask.rect.intersection(clip).intersection(canvas.bounds)
          for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
              let c = mask.bytes[(y - mask.rect.y) * mask.rect.width + (x - mask.rect.x)]
              canvas.blendPixel(x: x, y: y, color: color, coverage: UInt32(c))
            }
          }
        }
      }
      if let i = memoised.bytes.indices.first(where: { memoised.bytes[$0] != reference.bytes[$0] }) {
        XCTFail("\(S.format.name) trial \(trial): memoised blit differs at byte \(i)")
      }
    }
    for trial in 0..<60 {
      check(XRGB8888.self, trial: trial)
      check(RGB565.self, trial: trial)
    }
  }
}
