import CommandTestSupport
import Foundation
import PNGImage
import Raster
import XCTest

final class PNGFileTests: XCTestCase {
  private var directory = ""

  override func setUpWithError() throws { directory = try makeTemporaryDirectory(prefix: "pngimage-tests").path }

  /// A 5x3 XRGB8888 frame with 4 bytes of padding per row, every pixel distinct.
  private func paddedXRGBFrame() -> (bytes: [UInt8], width: Int, height: Int, stride: Int) {
    let width = 5, height = 3, stride = width * 4 + 4
    var bytes = [UInt8](repeating: 0xEE, count: stride * height)
    for y in 0..<height {
      for x in 0..<width {
        let i = y * stride + x * 4
        bytes[i] = UInt8(10 * x + y)  // blue
        bytes[i + 1] = UInt8(100 + y)  // green
        bytes[i + 2] = UInt8(200 + x)  // red
        bytes[i + 3] = 0x5A  // X: ignored
      }
    }
    return (bytes, width, height, stride)
  }

  func testXRGBFrameWithRowPaddingReadsBackWithTheSameColoursAndOpaqueAlpha() throws {
    let frame = paddedXRGBFrame()
    let path = directory + "/frame.png"
    try PNGFile.write(to: path, frame: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride, format: .xrgb8888)
    let image = try PNGFile.read(from: path)
    XCTAssertEqual(image.width, 5)
    XCTAssertEqual(image.height, 3)
    for y in 0..<3 {
      for x in 0..<5 {
        let p = image.pixel(x: x, y: y)
        XCTAssertEqual([p.red, p.green, p.blue, p.alpha], [UInt8(200 + x), UInt8(100 + y), UInt8(10 * x + y), 255], "pixel (\(x), \(y))")
      }
    }
  }

  func testRGB565ChannelsAreExpandedByBitReplication() {
    XCTAssertTrue(RGBConversion.rgb(fromRGB565: 0xFFFF) == (255, 255, 255))
    XCTAssertTrue(RGBConversion.rgb(fromRGB565: 0x0000) == (0, 0, 0))
    // r5 = 16 -> 128 | 4, g6 = 32 -> 128 | 2, b5 = 1 -> 8 | 0.
    XCTAssertTrue(RGBConversion.rgb(fromRGB565: 16 << 11 | 32 << 5 | 1) == (132, 130, 8))
    // Every 5-bit value is monotonic and covers 0...255.
    var previous = -1
    for r5 in 0..<32 {
      let red = Int(RGBConversion.rgb(fromRGB565: UInt16(r5) << 11).red)
      XCTAssertGreaterThan(red, previous, "r5 = \(r5)")
      previous = red
    }
    XCTAssertEqual(previous, 255)
  }

  func testRGB565FrameWrittenAsPNGReadsBackExpanded() throws {
    // Two pixels, little-endian: pure red (0xF800) and a mid grey-green (r5=16, g6=32, b5=1).
    let frame: [UInt8] = [0x00, 0xF8, 0x01, 0x84]
    let path = directory + "/565.png"
    try PNGFile.write(to: path, frame: frame, width: 2, height: 1, stride: 4, format: .rgb565)
    let image = try PNGFile.read(from: path)
    XCTAssertEqual(image.pixels, [255, 0, 0, 255, 132, 130, 8, 255])
  }

  func testAFrameWrittenARowAtATimeIsTheFileItsPackedCopyWrites() throws {
    // Rows padded, both formats, and wide enough for libpng to filter and deflate.
    let width = 301, height = 7
    for format in [PixelFormat.xrgb8888, .rgb565] {
      let stride = width * format.bytesPerPixel + 12
      let frame = (0..<(stride * height)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 11) }
      let rows = directory + "/rows-\(format).png", packed = directory + "/packed-\(format).png"
      try PNGFile.write(to: rows, frame: frame, width: width, height: height, stride: stride, format: format)
      let rgb = frame.withUnsafeBytes { RGBConversion.packedRGB($0, width: width, height: height, stride: stride, format: format) }
      try PNGFile.writeRGB(to: packed, rgb: rgb, width: width, height: height)
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: rows)), try Data(contentsOf: URL(fileURLWithPath: packed)), "\(format)")
    }
  }

  func testAFrameWrittenToAFullDiskIsReportedAsASystemError() throws {
    try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
    let frame = (0..<(300 * 300 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
    XCTAssertThrowsError(try PNGFile.write(to: "/dev/full", frame: frame, width: 300, height: 300, stride: 1200, format: .xrgb8888)) {
      error in
      guard case .system(.write, "/dev/full", _, _)? = error as? PNGError else { return XCTFail("unexpected \(error)") }
    }
  }

  func testWritingIntoAMissingDirectorySaysWhichPathAndAsksWhetherTheDirectoryExists() {
    let path = directory + "/out/00001.png"
    XCTAssertThrowsError(try PNGFile.writeRGB(to: path, rgb: [1, 2, 3], width: 1, height: 1)) { error in
      guard let error = error as? PNGError else { return XCTFail("not a PNGError: \(error)") }
      XCTAssertEqual(
        error.message,
        "cannot write \(path): No such file or directory (does the directory \(directory)/out exist?)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testAFullDiskIsReportedAsASystemErrorAndTheDeviceIsLeftAlone() throws {
    try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
    // Enough pixels that libpng's output overflows stdio's buffer.
    let rgb = (0..<(300 * 300 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
    XCTAssertThrowsError(try PNGFile.writeRGB(to: "/dev/full", rgb: rgb, width: 300, height: 300)) { error in
      guard case .system(.write, "/dev/full", _, _)? = error as? PNGError else { return XCTFail("unexpected \(error)") }
      XCTAssertTrue((error as! PNGError).message.hasSuffix("(is the disk full?)"), (error as! PNGError).message)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: "/dev/full"))
  }

  func testReadingAFileThatIsNotAPNGThrowsInvalidFile() throws {
    let path = directory + "/text.png"
    try "hello, not a png".write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try PNGFile.read(from: path)) { error in
      XCTAssertEqual(error as? PNGError, .invalidFile(path: path, reason: "not a PNG file"))
    }
  }

  func testReadingATruncatedPNGThrowsInvalidFileInsteadOfCrashing() throws {
    let frame = paddedXRGBFrame()
    let path = directory + "/cut.png"
    try PNGFile.write(to: path, frame: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride, format: .xrgb8888)
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    for length in [12, 40, whole.count - 14] {
      try whole.prefix(length).write(to: URL(fileURLWithPath: path))
      XCTAssertThrowsError(try PNGFile.read(from: path), "cut at \(length)") { error in
        guard case .invalidFile(path, _)? = error as? PNGError else { return XCTFail("cut at \(length): \(error)") }
      }
    }
  }

  func testReadingAMissingFileNamesIt() {
    let path = directory + "/absent.png"
    XCTAssertThrowsError(try PNGFile.read(from: path)) { error in
      XCTAssertEqual((error as? PNGError)?.message, "cannot read \(path): No such file or directory (is the path right?)")
    }
  }
}
