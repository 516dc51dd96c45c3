import Foundation
import PatternCore
import Scene
import Screen
import Typeface
import XCTest

@testable import LockProgram

/// The prompts' glyphs: a language the fonts cannot draw falls back to English prompts,
/// said once, rather than to a lock without words.
final class ScreenTextTests: XCTestCase {
  private let missingFallback = "/nonexistent/no-such-fallback-font.ttf"

  override func setUpWithError() throws {
    try XCTSkipUnless(FileManager.default.fileExists(atPath: FontLoader.defaultFontPath), "needs \(FontLoader.defaultFontPath)")
  }

  func testChineseWithoutItsFontFallsBackToEnglish() throws {
    var language = Language.zhCN
    var said: [TypefaceError] = []
    let atlas = try ScreenText.loadAtlas(
      path: FontLoader.defaultFontPath, pixelSize: 20, message: "", language: &language, fallbackPath: missingFallback,
      said: { said.append($0) })
    XCTAssertEqual(language, .en)
    XCTAssertEqual(said.count, 1)
    XCTAssertTrue(said.first?.isLanguageFallback ?? false)
    XCTAssertTrue(said.first?.message.hasSuffix("; the prompts are shown in English") ?? false, said.first?.message ?? "")
    XCTAssertTrue(said.first?.message.contains("apt-get install fonts-wqy-microhei") ?? false)
    for scalar in Language.en.scalars {
      XCTAssertNotNil(atlas.glyph(for: scalar), "English needs '\(scalar)'")
    }
  }

  func testGermanNeedsNoFallbackFont() throws {
    var language = Language.de
    var said: [TypefaceError] = []
    _ = try ScreenText.loadAtlas(
      path: FontLoader.defaultFontPath, pixelSize: 20, message: "", language: &language, fallbackPath: missingFallback,
      said: { said.append($0) })
    XCTAssertEqual(language, .de)
    XCTAssertTrue(said.isEmpty)
  }

  func testChineseWithItsFontStaysChinese() throws {
    try XCTSkipUnless(FileManager.default.fileExists(atPath: FontLoader.fallbackFontPath), "needs \(FontLoader.fallbackFontPath)")
    var language = Language.zhCN
    var said: [TypefaceError] = []
    _ = try ScreenText.loadAtlas(
      path: FontLoader.defaultFontPath, pixelSize: 20, message: "", language: &language, said: { said.append($0) })
    XCTAssertEqual(language, .zhCN)
    XCTAssertTrue(said.isEmpty)
  }

  /// A missing main font is no language fallback: no text at all, said as such.
  func testAMissingFontIsNotALanguageFallback() {
    var language = Language.zhCN
    XCTAssertThrowsError(
      try ScreenText.loadAtlas(path: "/nonexistent/font.ttf", pixelSize: 20, message: "", language: &language, said: { _ in })
    ) { error in
      XCTAssertFalse((error as? TypefaceError)?.isLanguageFallback ?? true)
    }
    XCTAssertEqual(language, .zhCN)
  }
}
