import Foundation
import GoldenSupport
import PatternCore
import Raster
import Scene
import Typeface
import XCTest

/// The lock screen in every language of the catalogue: each prompt fits the text band
/// at the sizes the lock is reviewed for, and golden frames of the idle prompt, a wrong
/// pattern with the tries left and a lockout's countdown at 800x480 and 480x800 (and
/// the wrong pattern's two lines at 480x320).
///
/// The glyphs come from DejaVu Sans and, for Chinese, WenQuanYi Micro Hei (Debian's
/// fonts-dejavu-core and fonts-wqy-microhei); without them the tests are skipped.
final class LanguageSceneTests: XCTestCase {
  /// A lock screen in one language, its atlas made as `run` makes it.
  struct LanguageScreen {
    let layout: GridLayout
    let atlas: GlyphAtlas
    let renderer: LockScreenRenderer

    init(width: Int, height: Int, language: Language) throws {
      for path in [FontLoader.defaultFontPath, FontLoader.fallbackFontPath] {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "needs \(path) (scripts/install-deps installs it)")
      }
      layout = try GridLayout(LayoutOptions(panelWidth: width, panelHeight: height))
      atlas = try FontLoader.loadAtlas(
        pixelSize: layout.fontPixels, extras: FontLoader.defaultExtras + language.scalars.filter { $0.value > 0x7E },
        fallbackPath: FontLoader.fallbackFontPath)
      renderer = LockScreenRenderer(layout: layout, atlas: atlas, language: language)
    }

    func frame(_ state: LockScreenState) -> [UInt8] {
      let (w, h) = (layout.transform.viewWidth, layout.transform.viewHeight)
      var frame = [UInt8](repeating: 0xA5, count: w * h * 4)
      let renderer = renderer
      frame.withUnsafeMutableBytes { bytes in
        let canvas = Canvas<XRGB8888>(pixels: bytes, width: w, height: h, bytesPerRow: w * 4, rasterizer: renderer.rasterizer)
        renderer.render(state, into: canvas, damage: renderer.damage(from: nil, to: state))
      }
      return frame
    }
  }

  /// Every prompt with the widest numbers it can show (digits are all one width) and a
  /// number for every plural form: min-dots up to 49, the tries before a lockout (below permanent-after, 1000), a
  /// countdown's 47:59:59 and the longest lockout's 3,300 days.
  static var everyPrompt: [PromptText] {
    var prompts: [PromptText] = []
    for message in Message.allCases {
      switch message {
      case .tooShort: prompts += [1, 2, 5, 49].map { PromptText(.tooShort, $0) }
      case .wrongPatternTriesLeft: prompts += [1, 2, 5, 999].map { PromptText(.wrongPatternTriesLeft, $0) }
      case .tryAgainInMinutes: prompts.append(PromptText(.tryAgainInMinutes, 59, 59))
      case .tryAgainInHours: prompts.append(PromptText(.tryAgainInHours, 47, 59, 59))
      case .tryAgainInDays: prompts += [1, 2, 5, 3300].map { PromptText(.tryAgainInDays, $0) }
      // The widest guess bucket and the most tries permanent-after allows.
      case .patternSavedWithin: prompts += [20, 100_000].map { PromptText(.patternSavedWithin, $0, 1000) }
      case .patternSavedBeyond: prompts.append(PromptText(.patternSavedBeyond, 100_000, 1000))
      default:
        XCTAssertEqual(message.numberCount, 0, "\(message) takes numbers: give it its widest here")
        prompts.append(PromptText(message))
      }
    }
    return prompts
  }

  func testEveryPromptOfEveryLanguageFitsTheTextBand() throws {
    for (width, height) in [(480, 320), (800, 480), (320, 480), (480, 800)] {
      for language in Language.allCases {
        let screen = try LanguageScreen(width: width, height: height, language: language)
        let band = screen.layout.promptRect
        for prompt in LanguageSceneTests.everyPrompt {
          let lines = PromptLines(prompt, language: language, atlas: screen.atlas, width: band.width)
          let text = prompt.text(in: language)
          XCTAssertEqual(lines.string, text, "cut at \(PromptLines.capacity) scalars")
          XCTAssertLessThanOrEqual(
            lines.widestLine, band.width,
            "\(width)x\(height) \(language.code): '\(text)' is \(lines.widestLine) px on a line of the \(band.width) px band")
          // Every glyph is in the atlas: nothing is drawn as '?'.
          for scalar in text.unicodeScalars where scalar != " " {
            XCTAssertNotNil(screen.atlas.glyph(for: scalar), "\(language.code): no glyph for '\(scalar)' in '\(text)'")
          }
        }
      }
    }
  }

  func testTheAtlasHoldsTheCataloguesCharactersNotTheFonts() throws {
    for language in Language.allCases {
      let screen = try LanguageScreen(width: 800, height: 480, language: language)
      let wanted = Set(language.scalars.filter { $0.value > 0x7E } + FontLoader.defaultExtras)
      XCTAssertLessThanOrEqual(screen.atlas.count, FontLoader.asciiScalars.count + wanted.count, language.code)
      if language == .zhCN { XCTAssertLessThan(screen.atlas.count, 200, "WenQuanYi Micro Hei has 20,000 ideographs") }
    }
  }

  func testATwoLinePromptBreaksBetweenChineseCharactersAndAtSpaces() throws {
    let chinese = try LanguageScreen(width: 480, height: 320, language: .zhCN)
    let storage = PromptLines(.storageError, language: .zhCN, atlas: chinese.atlas, width: chinese.layout.promptRect.width)
    XCTAssertEqual(storage.lineCount, 2)
    let german = try LanguageScreen(width: 480, height: 320, language: .de)
    let tooShort = PromptLines(.tooShort(minimumDots: 4), language: .de, atlas: german.atlas, width: german.layout.promptRect.width)
    XCTAssertEqual(tooShort.lineCount, 2)
    XCTAssertEqual(Array(tooShort.string.unicodeScalars)[tooShort.firstEnd], " ", "broken at a space")
  }

  func testGoldenFramesOfEveryLanguage() throws {
    let states: [(String, LockScreenState)] = [
      ("idle", LockScreenState(prompt: .drawPattern)),
      ("wrong", LockScreenState(trail: DotSequence([1, 2, 3, 5, 7]), appearance: .wrong, prompt: .wrongPattern(triesLeft: 2))),
      ("countdown", LockScreenState(appearance: .wrong, prompt: .tryAgain(in: 89))),
    ]
    for language in Language.allCases {
      for (width, height) in [(800, 480), (480, 800)] {
        let screen = try LanguageScreen(width: width, height: height, language: language)
        for (name, state) in states {
          assertMatchesGolden(
            screen.frame(state), width: width, height: height, stride: width * 4, format: .xrgb8888,
            area: "scene", name: "language-\(language.code)-\(width)x\(height)-\(name)")
        }
      }
      // The narrowest band, where most prompts take two lines.
      let small = try LanguageScreen(width: 480, height: 320, language: language)
      assertMatchesGolden(
        small.frame(states[1].1), width: 480, height: 320, stride: 480 * 4, format: .xrgb8888,
        area: "scene", name: "language-\(language.code)-480x320-wrong")
    }
  }

  /// The enrolment guard's prompts: a commonly chosen pattern refused (red, with the
  /// advice) and a saved one with its strength, in every language, at 800x480 and on
  /// the narrowest band.
  func testGoldenFramesOfTheEnrolmentGuardsPrompts() throws {
    let states: [(String, LockScreenState)] = [
      ("enroll-common", LockScreenState(trail: DotSequence([1, 2, 3, 6]), appearance: .wrong, prompt: .commonPattern)),
      (
        "enroll-saved-strength",
        LockScreenState(trail: DotSequence([6, 3, 8, 1]), appearance: .success, prompt: .patternSaved(foundWithinGuesses: 100_000, allowed: 20))
      ),
    ]
    for language in Language.allCases {
      for (width, height) in [(800, 480), (480, 320)] {
        let screen = try LanguageScreen(width: width, height: height, language: language)
        for (name, state) in states {
          assertMatchesGolden(
            screen.frame(state), width: width, height: height, stride: width * 4, format: .xrgb8888,
            area: "scene", name: "language-\(language.code)-\(width)x\(height)-\(name)")
        }
      }
    }
  }

  /// What the lock shows while its judge works (the session lock's judge in another
  /// process, `run`'s Argon2id): the pattern, neutral, with "Checking…", in every
  /// language, at 800x480 and on the narrowest band.
  func testGoldenFramesWhileAPatternIsChecked() throws {
    let checking = LockScreenState(trail: DotSequence([2, 5, 9, 4, 3]), appearance: .entry, prompt: .checking)
    for language in Language.allCases {
      for (width, height) in [(800, 480), (480, 320)] {
        let screen = try LanguageScreen(width: width, height: height, language: language)
        assertMatchesGolden(
          screen.frame(checking), width: width, height: height, stride: width * 4, format: .xrgb8888,
          area: "scene", name: "language-\(language.code)-\(width)x\(height)-checking")
      }
    }
  }

  /// English is drawn as before there were languages: the frames of the captures'
  /// goldens do not change with the catalogue.
  func testEnglishIsDrawnAsBeforeTranslations() throws {
    let screen = try LanguageScreen(width: 800, height: 480, language: .en)
    let verbatim = LockScreenState(appearance: .wrong, prompt: PromptText("Wrong pattern"))
    let catalogue = LockScreenState(appearance: .wrong, prompt: .wrongPattern)
    XCTAssertEqual(screen.frame(verbatim), screen.frame(catalogue))
  }
}
