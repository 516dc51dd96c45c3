import PatternCore
import XCTest

@testable import Raster

/// A pixel buffer with padding after every row, filled with a marker byte so tests
/// can see every byte a draw call wrote.
struct TestBuffer {
  static let marker: UInt8 = 0xA5
  let width: Int
  let height: Int
  let bytesPerRow: Int
  var bytes: [UInt8]

  init(width: Int, height: Int, bytesPerPixel: Int, padding: Int = 12) {
    self.width = width
    self.height = height
    bytesPerRow = width * bytesPerPixel + padding
    bytes = [UInt8](repeating: TestBuffer.marker, count: bytesPerRow * height)
  }

  /// Runs `body` with a canvas over the buffer.
  mutating func draw<S: PixelStorage>(_: S.Type, _ rasterizer: Rasterizer, _ body: (Canvas<S>) -> Void) {
    let (w, h, pitch) = (width, height, bytesPerRow)
    bytes.withUnsafeMutableBytes { raw in
      body(Canvas<S>(pixels: raw, width: w, height: h, bytesPerRow: pitch, rasterizer: rasterizer))
    }
  }

  /// The pixel word at (x, y), little-endian.
  func word(x: Int, y: Int, bytesPerPixel: Int) -> UInt32 {
    var value: UInt32 = 0
    for i in 0..<bytesPerPixel { value |= UInt32(bytes[y * bytesPerRow + x * bytesPerPixel + i]) << (8 * i) }
    return value
  }
}

extension Fixed16 {
  /// The nearest 16.16 value to a Double (tests only).
  init(_ value: Double) { self.init(raw: Int32((value * 65536).rounded())) }
}

extension Point {
  init(_ x: Double, _ y: Double) { self.init(x: Fixed16(x), y: Fixed16(y)) }
}

/// Coverage of pixel (x, y) by `inside`, supersampled, as 0-255.
///
/// A 16x16 grid of samples first; where it finds an edge (some samples in, some
/// out) the pixel is resampled on a 64x64 grid, because a 16x16 grid alone
/// misjudges a horizontal or vertical edge by up to 1/32 of a pixel (8 levels),
/// as large as the error budget being tested.
func supersampledCoverage(x: Int, y: Int, inside: (Double, Double) -> Bool) -> Int {
  func count(_ n: Int) -> Int {
    var hits = 0
    for sy in 0..<n {
      for sx in 0..<n where inside(Double(x) + (Double(sx) + 0.5) / Double(n), Double(y) + (Double(sy) + 0.5) / Double(n)) {
        hits += 1
      }
    }
    return hits
  }
  let coarse = count(16)
  if coarse == 0 || coarse == 256 { return coarse == 0 ? 0 : 255 }
  return Int((Double(count(64)) * 255 / 4096).rounded())
}

/// Distance from (px, py) to the segment a-b.
func distanceToSegment(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
  let ux = bx - ax, uy = by - ay
  let l2 = ux * ux + uy * uy
  var t = l2 == 0 ? 0 : ((px - ax) * ux + (py - ay) * uy) / l2
  t = min(1, max(0, t))
  let dx = px - (ax + t * ux), dy = py - (ay + t * uy)
  return (dx * dx + dy * dy).squareRoot()
}

/// Draws a shape in opaque white on black (XRGB8888) and compares each pixel's
/// coverage with a 16x16-supersampled reference; returns the mean error over the
/// pixels inside `box` (the shape's box: the pixels it may touch), the largest
/// error anywhere, and where.
func coverageError(
  width: Int, height: Int, box: Rect, label: String,
  draw: (Canvas<XRGB8888>) -> Void, inside: (Double, Double) -> Bool
) -> (mean: Double, max: Int, worst: String) {
  let rasterizer = Rasterizer(maximumWidth: width)
  var buffer = TestBuffer(width: width, height: height, bytesPerPixel: 4)
  buffer.draw(XRGB8888.self, rasterizer) { canvas in
    canvas.fill(canvas.bounds, color: .black, clip: canvas.bounds)
    draw(canvas)
  }
  var total = 0, edgePixels = 0, worst = 0, worstText = ""
  for y in 0..<height {
    for x in 0..<width {
      let got = Int(buffer.word(x: x, y: y, bytesPerPixel: 4) & 0xFF)
      let want = supersampledCoverage(x: x, y: y, inside: inside)
      let error = abs(got - want)
      if x >= box.x && x < box.maxX && y >= box.y && y < box.maxY {
        total += error
        edgePixels += 1
      }
      if error > worst {
        worst = error
        worstText = "\(label): pixel (\(x), \(y)) got \(got) want \(want)"
      }
    }
  }
  return (Double(total) / Double(max(1, edgePixels)), worst, worstText)
}

/// SplitMix64: a fixed, seeded sequence, so a failure names a reproducible case.
struct SeededRandom {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A value in `range`.
  mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
    range.lowerBound &+ Int64(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
}
