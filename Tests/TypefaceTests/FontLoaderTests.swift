import CommandTestSupport
import Foundation
import Raster
import Typeface
import XCTest

final class FontLoaderTests: XCTestCase {
  private func dejaVu(_ size: Int = 20) throws -> GlyphAtlas {
    try XCTSkipUnless(
      FileManager.default.fileExists(atPath: FontLoader.defaultFontPath),
      "needs fonts-dejavu-core (\(FontLoader.defaultFontPath))")
    return try FontLoader.loadAtlas(pixelSize: size)
  }

  func testAtlasHasAGlyphForEveryPrintableASCIICharacter() throws {
    let atlas = try dejaVu()
    for value in UInt32(0x20)...0x7E {
      let scalar = Unicode.Scalar(value)!
      let glyph = atlas.glyph(for: scalar)
      XCTAssertNotNil(glyph, "no glyph for U+\(String(value, radix: 16))")
      XCTAssertGreaterThan(glyph?.advance ?? 0, 0, "zero advance for '\(scalar)'")
      if scalar != " " {
        XCTAssertGreaterThan((glyph?.width ?? 0) * (glyph?.height ?? 0), 0, "empty mask for '\(scalar)'")
      }
    }
    XCTAssertNotNil(atlas.glyph(for: "\u{2026}"), "DejaVu Sans has the ellipsis")
  }

  func testGlyphMasksHaveInkAndFullyCoveredPixels() throws {
    let atlas = try dejaVu()
    let glyph = try XCTUnwrap(atlas.glyph(for: "H"))
    var maximum: UInt8 = 0, inked = 0
    for y in 0..<glyph.height {
      for x in 0..<glyph.width {
        let c = atlas.coverage(x: x, y: y, of: glyph)
        maximum = max(maximum, c)
        if c > 0 { inked += 1 }
      }
    }
    XCTAssertEqual(maximum, 255, "hinted stems of 'H' are fully covered")
    XCTAssertGreaterThan(inked, glyph.height * 2, "two stems at least")
  }

  func testMetricsAreWholePixelsThatHoldTheGlyphs() throws {
    let atlas = try dejaVu(20)
    XCTAssertEqual(atlas.pixelSize, 20)
    XCTAssertGreaterThan(atlas.ascender, 0)
    XCTAssertGreaterThan(atlas.descender, 0)
    XCTAssertGreaterThanOrEqual(atlas.lineHeight, atlas.ascender + atlas.descender)
    let h = try XCTUnwrap(atlas.glyph(for: "H"))
    XCTAssertLessThanOrEqual(h.bearingY, atlas.ascender)
    let g = try XCTUnwrap(atlas.glyph(for: "g"))
    XCTAssertLessThanOrEqual(g.height - g.bearingY, atlas.descender, "descent of 'g'")
  }

  func testStringWidthGrowsWithLength() throws {
    let atlas = try dejaVu()
    var previous = 0
    for length in 1...12 {
      let width = TextLayout.width(of: String(repeating: "a", count: length), in: atlas)
      XCTAssertGreaterThan(width, previous, "length \(length)")
      previous = width
    }
    XCTAssertEqual(
      TextLayout.width(of: "Draw pattern", in: atlas),
      TextLayout.width(of: "Draw ", in: atlas) + TextLayout.width(of: "pattern", in: atlas))
  }

  func testCapitalWIsWiderThanLowercaseI() throws {
    let atlas = try dejaVu()
    XCTAssertGreaterThan(TextLayout.width(of: "W", in: atlas), TextLayout.width(of: "i", in: atlas))
    XCTAssertGreaterThan(try XCTUnwrap(atlas.glyph(for: "W")).width, try XCTUnwrap(atlas.glyph(for: "i")).width)
  }

  func testBuildingTheAtlasTwiceGivesIdenticalBytesAndMetrics() throws {
    let a = try dejaVu(17), b = try dejaVu(17)
    XCTAssertEqual(a.plane, b.plane)
    XCTAssertEqual(a.count, b.count)
    for i in 0..<a.count { XCTAssertEqual(a.glyph(at: i), b.glyph(at: i)) }
    XCTAssertFalse(a.plane.allSatisfy { $0 == 0 })
  }

  func testLargerPixelSizeGivesWiderText() throws {
    let small = try dejaVu(12), large = try dejaVu(36)
    XCTAssertGreaterThan(TextLayout.width(of: "Try again", in: large), TextLayout.width(of: "Try again", in: small))
  }

  func testMissingFontFileGivesCannotOpenWithTheFix() {
    let path = NSTemporaryDirectory() + "no-such-font-\(UUID().uuidString).ttf"
    XCTAssertThrowsError(try FontLoader.loadAtlas(path: path, pixelSize: 20)) { error in
      guard let error = error as? TypefaceError else { return XCTFail("not a TypefaceError: \(error)") }
      XCTAssertEqual(error, .cannotOpen(path: path, reason: "No such file or directory"))
      XCTAssertTrue(error.message.hasPrefix("cannot load font \(path): No such file or directory (check the font path"), error.message)
    }
  }

  func testMissingDefaultFontMessageSaysWhatToInstall() {
    let error = TypefaceError.cannotOpen(path: FontLoader.defaultFontPath, reason: "No such file or directory")
    XCTAssertTrue(error.message.contains("apt-get install fonts-dejavu-core"), error.message)
    XCTAssertFalse(error.message.contains("\n"))
  }

  func testADirectoryOrAFileThatIsNotAFontGivesTypedErrors() throws {
    let directory = try makeTemporaryDirectory(prefix: "typeface-tests").path
    XCTAssertThrowsError(try FontLoader.loadAtlas(path: directory, pixelSize: 20)) { error in
      XCTAssertEqual(error as? TypefaceError, .cannotOpen(path: directory, reason: "it is a directory"))
    }
    let path = directory + "/not-a-font.ttf"
    try "just text".write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try FontLoader.loadAtlas(path: path, pixelSize: 20)) { error in
      XCTAssertEqual(error as? TypefaceError, .notAFont(path: path, freeTypeError: 2))
      XCTAssertTrue((error as? TypefaceError)?.message.contains("unknown file format") ?? false)
    }
  }

  func testPixelSizeOutsideTheRangeIsRefusedBeforeOpeningTheFont() {
    XCTAssertThrowsError(try FontLoader.loadAtlas(path: "/nonexistent", pixelSize: 2)) { error in
      XCTAssertEqual(error as? TypefaceError, .pixelSizeOutOfRange(2))
    }
  }
}
