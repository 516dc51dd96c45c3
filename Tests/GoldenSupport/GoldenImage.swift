// GoldenSupport: compares rendered frames with golden PNGs under Tests/Golden.
//
// Test-only (Foundation and XCTest are allowed here); no product target may depend
// on it. The comparison is exact: the rasteriser is integer and fixed point, so any
// changed pixel is a real change, and a tolerance would hide slow drift.
import CommandTestSupport
import Foundation
import PNGImage
import Raster
import XCTest

/// How a frame compared with its golden image.
public enum GoldenOutcome: Equatable {
  /// Every pixel matches.
  case matched
  /// There was no golden and recording was on: the frame was written as the golden.
  case recorded(goldenPath: String)
  /// There was no golden and recording was off.
  case missing(goldenPath: String)
  /// The golden has another size; the frame was written to `actualPath`.
  case sizeMismatch(goldenPath: String, actualPath: String, expected: (Int, Int), actual: (Int, Int))
  /// Pixels differ; see `GoldenMismatch`.
  case mismatch(GoldenMismatch)

  public static func == (a: GoldenOutcome, b: GoldenOutcome) -> Bool {
    switch (a, b) {
    case (.matched, .matched): return true
    case (.recorded(let x), .recorded(let y)), (.missing(let x), .missing(let y)): return x == y
    case (.sizeMismatch(let g1, let a1, let e1, let s1), .sizeMismatch(let g2, let a2, let e2, let s2)):
      return g1 == g2 && a1 == a2 && e1 == e2 && s1 == s2
    case (.mismatch(let x), .mismatch(let y)): return x == y
    default: return false
    }
  }
}

/// Where a frame first differs from its golden, and the files written to look at.
public struct GoldenMismatch: Equatable {
  public let goldenPath: String
  /// The frame as rendered: `<name>.actual.png`.
  public let actualPath: String
  /// Differences in red over a dimmed copy of the golden: `<name>.diff.png`.
  public let diffPath: String
  /// The first differing pixel in row-major order.
  public let x: Int
  public let y: Int
  /// The golden's colour there, `0xRRGGBB`.
  public let expected: UInt32
  /// The frame's colour there, `0xRRGGBB`.
  public let actual: UInt32
  /// How many pixels differ.
  public let differingPixels: Int

  public init(
    goldenPath: String, actualPath: String, diffPath: String, x: Int, y: Int,
    expected: UInt32, actual: UInt32, differingPixels: Int
  ) {
    self.goldenPath = goldenPath
    self.actualPath = actualPath
    self.diffPath = diffPath
    self.x = x
    self.y = y
    self.expected = expected
    self.actual = actual
    self.differingPixels = differingPixels
  }
}

/// Golden-file comparison, with the file locations and recording switch passed in
/// (tests of this code use a temporary directory; `assertMatchesGolden` uses the
/// package's `Tests/Golden`).
public enum GoldenImage {
  /// Compares a frame with the golden PNG at `goldenPath`.
  ///
  /// On a mismatch writes `<name>.actual.png` and `<name>.diff.png` beside the golden;
  /// on a match removes stale ones. A missing golden is written only when `record`
  /// is true; an existing golden is never overwritten (delete it to re-record).
  ///
  /// - Parameters:
  ///   - frame: the frame's bytes, rows `stride` apart, pixels as `format` says.
  ///   - goldenPath: the golden file, ending in `.png`.
  ///   - record: whether to write a missing golden.
  /// - Throws: `PNGError` when a file cannot be read or written.
  public static func compare(
    _ frame: [UInt8], width: Int, height: Int, stride: Int, format: PixelFormat,
    goldenPath: String, record: Bool
  ) throws(PNGError) -> GoldenOutcome {
    let rgb = frame.withUnsafeBytes { bytes in
      RGBConversion.packedRGB(bytes, width: width, height: height, stride: stride, format: format)
    }
    let stem = String(goldenPath.dropLast(goldenPath.hasSuffix(".png") ? 4 : 0))
    let actualPath = stem + ".actual.png", diffPath = stem + ".diff.png"
    guard FileManager.default.fileExists(atPath: goldenPath) else {
      guard record else { return .missing(goldenPath: goldenPath) }
      try? FileManager.default.createDirectory(
        atPath: (goldenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try PNGFile.writeRGB(to: goldenPath, rgb: rgb, width: width, height: height)
      return .recorded(goldenPath: goldenPath)
    }
    let golden = try PNGFile.read(from: goldenPath)
    guard golden.width == width, golden.height == height else {
      try PNGFile.writeRGB(to: actualPath, rgb: rgb, width: width, height: height)
      return .sizeMismatch(
        goldenPath: goldenPath, actualPath: actualPath, expected: (golden.width, golden.height), actual: (width, height))
    }
    var first: (x: Int, y: Int, expected: UInt32, actual: UInt32)?
    var differing = 0
    var diff = [UInt8](repeating: 0, count: width * height * 3)
    for i in 0..<(width * height) {
      let e = (golden.pixels[i * 4], golden.pixels[i * 4 + 1], golden.pixels[i * 4 + 2])
      let a = (rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2])
      if e == a {
        // Dimmed grey of the golden, so the red differences stand out in context.
        let grey = UInt8((Int(e.0) * 77 + Int(e.1) * 150 + Int(e.2) * 29) >> 10)
        diff[i * 3] = grey
        diff[i * 3 + 1] = grey
        diff[i * 3 + 2] = grey
      } else {
        differing += 1
        diff[i * 3] = 255
        if first == nil {
          first = (i % width, i / width, packed(e), packed(a))
        }
      }
    }
    guard let first else {
      try? FileManager.default.removeItem(atPath: actualPath)
      try? FileManager.default.removeItem(atPath: diffPath)
      return .matched
    }
    try PNGFile.writeRGB(to: actualPath, rgb: rgb, width: width, height: height)
    try PNGFile.writeRGB(to: diffPath, rgb: diff, width: width, height: height)
    return .mismatch(
      GoldenMismatch(
        goldenPath: goldenPath, actualPath: actualPath, diffPath: diffPath, x: first.x, y: first.y,
        expected: first.expected, actual: first.actual, differingPixels: differing))
  }

  /// The package root: the nearest directory above `file` holding Package.swift.
  public static func packageRoot(from file: String) -> String? { PackageRoot.find(above: file)?.path }

  /// `0xRRGGBB` as six hex digits.
  public static func hex(_ colour: UInt32) -> String {
    let digits = String(colour, radix: 16)
    return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
  }

  private static func packed(_ c: (UInt8, UInt8, UInt8)) -> UInt32 {
    UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2)
  }
}

/// Fails the test unless the frame equals `Tests/Golden/<area>/<name>.png` exactly.
///
/// On a mismatch writes `<name>.actual.png` and `<name>.diff.png` next to the golden
/// and names them and the first bad pixel. A missing golden fails unless the
/// environment has `RECORD_GOLDEN=1`, which writes it (commit it after looking at it).
///
/// - Parameters:
///   - frame: the frame's bytes, rows `stride` apart, pixels as `format` says.
///   - area: the golden subdirectory (`raster`, `scene`).
///   - name: the case, spelling its parameters (`line-45-aa-w3`).
public func assertMatchesGolden(
  _ frame: [UInt8], width: Int, height: Int, stride: Int, format: PixelFormat,
  area: String, name: String, file: StaticString = #filePath, line: UInt = #line
) {
  guard let root = GoldenImage.packageRoot(from: "\(file)") else {
    XCTFail("golden \(area)/\(name): no Package.swift above \(file)", file: file, line: line)
    return
  }
  let goldenPath = root + "/Tests/Golden/" + area + "/" + name + ".png"
  let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
  let outcome: GoldenOutcome
  do {
    outcome = try GoldenImage.compare(
      frame, width: width, height: height, stride: stride, format: format, goldenPath: goldenPath, record: record)
  } catch {
    XCTFail("golden \(area)/\(name): \(error.message)", file: file, line: line)
    return
  }
  switch outcome {
  case .matched:
    break
  case .recorded(let path):
    print("recorded golden \(path): look at it before committing")
  case .missing(let path):
    XCTFail("golden \(path) is missing (run with RECORD_GOLDEN=1 to write it)", file: file, line: line)
  case .sizeMismatch(let path, let actualPath, let expected, let actual):
    XCTFail(
      "golden \(path) is \(expected.0)x\(expected.1) but the frame is \(actual.0)x\(actual.1); frame written to \(actualPath)",
      file: file, line: line)
  case .mismatch(let m):
    XCTFail(
      "frame differs from golden \(m.goldenPath) in \(m.differingPixels) pixels, first at (\(m.x), \(m.y)): "
        + "expected \(GoldenImage.hex(m.expected)), actual \(GoldenImage.hex(m.actual)); "
        + "see \(m.actualPath) and \(m.diffPath)",
      file: file, line: line)
  }
}
