import GoldenSupport
import PNGImage
import Raster
import XCTest

final class ContactSheetTests: XCTestCase {
  /// An XRGB8888 frame where pixel (x, y) of frame `n` is red x*16+n, green y*16, blue 200.
  private func frame(_ n: Int, width: Int, height: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        bytes[i] = 200
        bytes[i + 1] = UInt8(y * 16)
        bytes[i + 2] = UInt8(truncatingIfNeeded: x * 16 + n)
      }
    }
    return bytes
  }

  func testSheetSizeCountsThumbnailsAndSeparatorsAroundAndBetween() {
    let sheet = ContactSheet(frameWidth: 800, frameHeight: 480, frameCount: 7, columns: 3, scale: 8, separator: 2)
    XCTAssertEqual(sheet.thumbnailWidth, 100)
    XCTAssertEqual(sheet.thumbnailHeight, 60)
    XCTAssertEqual(sheet.rows, 3)
    XCTAssertEqual(sheet.width, 3 * 100 + 4 * 2)
    XCTAssertEqual(sheet.height, 3 * 60 + 4 * 2)
    XCTAssertEqual(sheet.pixels.count, sheet.stride * sheet.height)
    XCTAssertTrue(sheet.origin(ofCell: 4) == (2 + 102, 2 + 62))
  }

  func testEachThumbnailPixelIsTheRoundedMeanOfItsBox() {
    var sheet = ContactSheet(frameWidth: 4, frameHeight: 4, frameCount: 1, columns: 1, scale: 2, separator: 1)
    // Box (0,0): red x*16 over x = 0,1 -> mean 8; green over y = 0,1 -> 8.
    sheet.place(frame(0, width: 4, height: 4), stride: 16, format: .xrgb8888, at: 0)
    XCTAssertEqual(sheet.pixel(x: 1, y: 1), 0x08_08C8)
    // Box (1,1): red over x = 2,3 -> (32+48)/2 = 40, green over y = 2,3 -> 40.
    XCTAssertEqual(sheet.pixel(x: 2, y: 2), 0x28_28C8)
  }

  func testMeanRoundsHalfUp() {
    // Two pixels per box horizontally: red 0 and 1 average to 0.5, which rounds to 1.
    let bytes: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 0]
    var sheet = ContactSheet(frameWidth: 2, frameHeight: 1, frameCount: 1, columns: 1, scale: 1, separator: 0)
    sheet.place(bytes, stride: 8, format: .xrgb8888, at: 0)
    XCTAssertEqual(sheet.pixel(x: 1, y: 0), 0x01_0000)
    var halved = ContactSheet(frameWidth: 2, frameHeight: 2, frameCount: 1, columns: 1, scale: 2, separator: 0)
    halved.place(bytes + [UInt8](repeating: 0, count: 8), stride: 8, format: .xrgb8888, at: 0)
    XCTAssertEqual(halved.pixel(x: 0, y: 0), 0)  // 1/4 rounds to 0
  }

  func testSeparatorsKeepTheirColourAndEmptyCellsStayBlack() {
    var sheet = ContactSheet(
      frameWidth: 4, frameHeight: 4, frameCount: 3, columns: 2, scale: 2, separator: 1, separatorColour: 0x12_3456)
    sheet.place(frame(0, width: 4, height: 4), stride: 16, format: .xrgb8888, at: 0)
    sheet.place(frame(1, width: 4, height: 4), stride: 16, format: .xrgb8888, at: 1)
    sheet.place(frame(2, width: 4, height: 4), stride: 16, format: .xrgb8888, at: 2)
    for x in 0..<sheet.width {
      XCTAssertEqual(sheet.pixel(x: x, y: 0), 0x12_3456, "top edge x=\(x)")
      XCTAssertEqual(sheet.pixel(x: x, y: 3), 0x12_3456, "middle line x=\(x)")
    }
    for y in 0..<sheet.height { XCTAssertEqual(sheet.pixel(x: 3, y: y), 0x12_3456, "middle column y=\(y)") }
    let filled = sheet.origin(ofCell: 1)
    XCTAssertNotEqual(sheet.pixel(x: filled.x, y: filled.y), 0)
    // Cell 3 does not exist (3 frames): its area is black.
    XCTAssertEqual(sheet.pixel(x: 4, y: 4), 0)
    XCTAssertEqual(sheet.pixel(x: 5, y: 5), 0)
  }

  func testRGB565FramesAreExpandedBeforeAveraging() {
    // 0xFFFF and 0x0000 side by side: mean of 255 and 0 is 127.5 -> 128.
    var sheet = ContactSheet(frameWidth: 2, frameHeight: 2, frameCount: 1, columns: 1, scale: 2, separator: 0)
    sheet.place([0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0], stride: 4, format: .rgb565, at: 0)
    XCTAssertEqual(sheet.pixel(x: 0, y: 0), 0x80_8080)
  }

  func testSheetOfSixGradientFramesMatchesGolden() {
    var sheet = ContactSheet(frameWidth: 16, frameHeight: 12, frameCount: 6, columns: 4, scale: 2, separator: 1)
    for n in 0..<6 { sheet.place(frame(n * 20, width: 16, height: 12), stride: 64, format: .xrgb8888, at: n) }
    assertMatchesGolden(
      sheet.pixels, width: sheet.width, height: sheet.height, stride: sheet.stride, format: .xrgb8888,
      area: "png", name: "contact-sheet-16x12-n6-c4-s2-sep1")
  }
}
