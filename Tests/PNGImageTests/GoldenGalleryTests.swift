import CommandTestSupport
import Foundation
import GoldenSupport
import PNGImage
import Raster
import XCTest

/// The contact sheets of docs/gallery.md: the scene's golden frames of every theme,
/// language, tap entry and the fading trail, side by side, one sheet for 800x480 and
/// one for 480x800. Made from the goldens themselves, so a golden that changes (or
/// goes missing) fails here until the sheet is made again (`RECORD_GOLDEN=1` after
/// deleting the sheet), and the docs never show a picture the tests no longer check.
final class GoldenGalleryTests: XCTestCase {
  /// The landscape sheet, row by row: each preset (drawing, wrong, message with the
  /// power button), each language (idle, wrong, countdown), then taps and the trail.
  static let landscape = [
    "l-shape-800x480-drawing-3-dots", "z-800x480-wrong", "theme-default-800x480-message-power-button",
    "theme-high-contrast-800x480-drawing-3-dots", "theme-high-contrast-800x480-wrong",
    "theme-high-contrast-800x480-message-power-button",
    "theme-light-800x480-drawing-3-dots", "theme-light-800x480-wrong", "theme-light-800x480-message-power-button",
    "language-en-800x480-idle", "language-en-800x480-wrong", "language-en-800x480-countdown",
    "language-de-800x480-idle", "language-de-800x480-wrong", "language-de-800x480-countdown",
    "language-zh_CN-800x480-idle", "language-zh_CN-800x480-wrong", "language-zh_CN-800x480-countdown",
    "tap-800x480-3-dots", "tap-800x480-confirmed", "fade-trail-800x480-drawing-5-dots",
  ]

  /// The portrait sheet: the presets (drawing, wrong), the languages, then taps and
  /// the trail.
  static let portrait = [
    "portrait-480x800-drawing-4-dots", "theme-default-480x800-wrong",
    "theme-high-contrast-480x800-drawing-4-dots", "theme-high-contrast-480x800-wrong",
    "theme-light-480x800-drawing-4-dots", "theme-light-480x800-wrong",
    "language-en-480x800-idle", "language-en-480x800-wrong", "language-en-480x800-countdown",
    "language-de-480x800-idle", "language-de-480x800-wrong", "language-de-480x800-countdown",
    "language-zh_CN-480x800-idle", "language-zh_CN-480x800-wrong", "language-zh_CN-480x800-countdown",
    "tap-480x800-3-dots", "tap-480x800-confirmed", "fade-trail-480x800-drawing-4-dots",
  ]

  func testTheLandscapeSheetShowsTheGoldens() throws {
    try checkSheet(Self.landscape, width: 800, height: 480, columns: 3, name: "gallery-800x480")
  }

  func testThePortraitSheetShowsTheGoldens() throws {
    try checkSheet(Self.portrait, width: 480, height: 800, columns: 6, name: "gallery-480x800")
  }

  /// Every cell the docs caption is on a sheet, in the same order.
  func testTheGalleryPageCaptionsEveryCell() throws {
    let page = try String(contentsOf: PackageRoot.url("docs/gallery.md"), encoding: .utf8)
    for names in [Self.landscape, Self.portrait] {
      var rest = page[...]
      for name in names {
        guard let found = rest.range(of: "`\(name)`") else {
          XCTFail("docs/gallery.md does not caption \(name) (or not in the sheet's order)")
          break
        }
        rest = rest[found.upperBound...]
      }
    }
  }

  private func checkSheet(_ names: [String], width: Int, height: Int, columns: Int, name: String) throws {
    var sheet = ContactSheet(frameWidth: width, frameHeight: height, frameCount: names.count, columns: columns, scale: 3)
    for (index, golden) in names.enumerated() {
      let image = try PNGFile.read(from: PackageRoot.url("Tests/Golden/scene/\(golden).png").path)
      XCTAssertEqual(image.width, width, golden)
      XCTAssertEqual(image.height, height, golden)
      guard image.width == width, image.height == height else { return }
      let frame = xrgb8888(image)
      frame.withUnsafeBytes { sheet.place($0, stride: width * 4, format: .xrgb8888, at: index) }
    }
    assertMatchesGolden(
      sheet.pixels, width: sheet.width, height: sheet.height, stride: sheet.stride, format: .xrgb8888,
      area: "gallery", name: name)
  }

  /// RGBA bytes as XRGB8888 words, little-endian.
  private func xrgb8888(_ image: RGBAImage) -> [UInt8] {
    var frame = [UInt8](repeating: 0, count: image.width * image.height * 4)
    for i in 0..<(image.width * image.height) {
      frame[i * 4] = image.pixels[i * 4 + 2]
      frame[i * 4 + 1] = image.pixels[i * 4 + 1]
      frame[i * 4 + 2] = image.pixels[i * 4]
    }
    return frame
  }
}
