import PatternCore
import XCTest

@testable import Raster

/// The fast mask paths (a `CoverageMask`'s row runs, and the coverage-row blend that
/// skips eight zero bytes and stores eight 255s at a time) must give exactly the
/// bytes of blending every pixel on its own with `blendPixel`.
final class MaskRunTests: XCTestCase {
  private let width = 61, height = 23

  /// A repeatable generator (SplitMix64), so a failure names a seed that reproduces it.
  private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Mask bytes made of stretches 1 to 14 long of zeros, 255s, random bytes and
  /// random bytes that are often 0 or 255: every kind of run and gap, at every length
  /// around the eight-byte chunks and the run thresholds.
  private func randomMask(count: Int, using random: inout SplitMix) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
      let length = Int.random(in: 1...14, using: &random)
      let kind = Int.random(in: 0..<4, using: &random)
      for _ in 0..<length {
        switch kind {
        case 0: bytes.append(0)
        case 1: bytes.append(255)
        case 2: bytes.append(UInt8.random(in: 0...255, using: &random))
        default: bytes.append([0, 255, 1, 254, 128][Int.random(in: 0..<5, using: &random)])
        }
      }
    }
    return Array(bytes.prefix(count))
  }

  func testRunsHoldEveryNonZeroByteAndFullRunsAreAll255() {
    var random = SplitMix(state: 1)
    for seed in 0..<200 {
      let w = Int.random(in: 1...40, using: &random), h = Int.random(in: 1...6, using: &random)
      let bytes = randomMask(count: w * h, using: &random)
      let mask = CoverageMask(rect: Rect(x: 3, y: 4, width: w, height: h), bytes: bytes)
      XCTAssertEqual(mask.rowRuns.count, h + 1, "seed \(seed)")
      for row in 0..<h {
        var covered = [Bool](repeating: false, count: w)
        var previousEnd = 0
        for run in mask.runs[Int(mask.rowRuns[row])..<Int(mask.rowRuns[row + 1])] {
          let start = Int(run.start), end = Int(run.end)
          XCTAssert(start >= previousEnd && start < end && end <= w, "seed \(seed) row \(row): run \(run) out of order")
          previousEnd = end
          for x in start..<end {
            covered[x] = true
            if run.full { XCTAssertEqual(bytes[row * w + x], 255, "seed \(seed) row \(row) column \(x): full run") }
          }
        }
        for x in 0..<w where bytes[row * w + x] != 0 {
          XCTAssert(covered[x], "seed \(seed) row \(row) column \(x): byte \(bytes[row * w + x]) outside every run")
        }
      }
    }
  }

  func testRunsOfARingRowSkipTheHoleAndFillTheStroke() {
    let row: [UInt8] = [0, 0, 40, 255, 255, 255, 255, 255, 90, 0, 0, 0, 0, 0, 0, 90, 255, 255, 255, 255, 255, 40, 0]
    let mask = CoverageMask(rect: Rect(x: 0, y: 0, width: row.count, height: 1), bytes: row)
    XCTAssertEqual(mask.runs, [
      CoverageMask.Run(start: 2, end: 3, full: false), CoverageMask.Run(start: 3, end: 8, full: true),
      CoverageMask.Run(start: 8, end: 9, full: false), CoverageMask.Run(start: 15, end: 16, full: false),
      CoverageMask.Run(start: 16, end: 21, full: true), CoverageMask.Run(start: 21, end: 22, full: false),
    ])
  }

  func testEmptyMaskHasNoRunsAndBlitsNothing() {
    let mask = CoverageMask(rect: .empty, bytes: [])
    XCTAssertEqual(mask.runs.count, 0)
    var buffer = TestBuffer(width: 4, height: 4, bytesPerPixel: 4)
    let before = buffer.bytes
    buffer.draw(XRGB8888.self, Rasterizer(maximumWidth: 4)) { $0.blit(mask, color: .white, clip: $0.bounds) }
    XCTAssertEqual(buffer.bytes, before)
  }

  /// Blits random masks, partly off the canvas, under clips, in opaque and
  /// translucent colours, through the runs (`blit`) and through the coverage-row
  /// blend (`blitMask`), and compares both with `blendPixel` on every pixel.
  private func fastPathsMatchPerPixelBlend<S: PixelStorage>(_ format: S.Type) {
    let rasterizer = Rasterizer(maximumWidth: width)
    let colors = [Color(79, 195, 247), Color(150, 160, 175, 120), Color(255, 72, 72, 1), Color(9, 8, 7, 254)]
    let clips = [
      Rect(x: 0, y: 0, width: width, height: height), Rect(x: 5, y: 2, width: 17, height: 9),
      Rect(x: 13, y: -3, width: 9, height: 40), Rect(x: 30, y: 5, width: 1, height: 1),
    ]
    var random = SplitMix(state: 7)
    for seed in 0..<40 {
      let box = Rect(
        x: Int.random(in: -10...30, using: &random), y: Int.random(in: -5...15, using: &random),
        width: Int.random(in: 1...50, using: &random), height: Int.random(in: 1...12, using: &random))
      let bytes = randomMask(count: box.width * box.height, using: &random)
      let mask = CoverageMask(rect: box, bytes: bytes)
      for color in colors {
        for clip in clips {
          var reference = TestBuffer(width: width, height: height, bytesPerPixel: S.bytesPerPixel)
          let background = Rect(x: 0, y: 0, width: width, height: height)
          reference.draw(S.self, rasterizer) { canvas in
            canvas.fillVerticalGradient(background, top: Color(16, 20, 28), bottom: Color(200, 6, 90), clip: background)
          }
          var runs = reference, rows = reference
          reference.draw(S.self, rasterizer) { canvas in
            let area = box.intersection(clip).intersection(canvas.bounds)
            for y in area.y..<area.maxY {
              for x in area.x..<area.maxX {
                let m = bytes[(y - box.y) * box.width + (x - box.x)]
                canvas.blendPixel(x: x, y: y, color: color, coverage: UInt32(m))
              }
            }
          }
          runs.draw(S.self, rasterizer) { $0.blit(mask, color: color, clip: clip) }
          rows.draw(S.self, rasterizer) {
            $0.blitMask(bytes, width: box.width, height: box.height, stride: box.width, x: box.x, y: box.y,
                        color: color, clip: clip)
          }
          for (name, buffer) in [("blit (runs)", runs), ("blitMask (coverage row)", rows)] {
            if let i = reference.bytes.indices.first(where: { reference.bytes[$0] != buffer.bytes[$0] }) {
              XCTFail("\(S.format.name) seed \(seed) box \(box) colour \(color) clip \(clip): \(name) differs from "
                + "per-pixel blending at row \(i / reference.bytesPerRow), column "
                + "\((i % reference.bytesPerRow) / S.bytesPerPixel)")
              return
            }
          }
        }
      }
    }
  }

  func testMaskFastPathsEqualPerPixelBlendXRGB8888() { fastPathsMatchPerPixelBlend(XRGB8888.self) }
  func testMaskFastPathsEqualPerPixelBlendRGB565() { fastPathsMatchPerPixelBlend(RGB565.self) }
}
