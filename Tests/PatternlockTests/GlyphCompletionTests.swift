import Foundation
import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import Typeface
import XCTest

@testable import LockProgram

/// The lock's first screen is drawn with only the glyphs it shows, the rest rendered
/// after its first frame: neither that screen nor any later one may differ by a pixel
/// from the one the full atlas draws.
final class GlyphCompletionTests: XCTestCase {
  let message = "Lost? Call Ada on 0123 456 789, or return to Hall B, desk 4 (ask for Zoë)."

  func layOut(firstScreen: PromptText?, language: Language = .en) throws -> (GridLayout, ScreenText, GlyphPlan?) {
    try ScreenText.layOut(
      LayoutOptions(), message: message, fontPath: FontLoader.defaultFontPath, language: language, loadingFont: true,
      firstScreen: firstScreen, fontFailure: { XCTFail("the font did not load: \($0.message)") })
  }

  func frame(_ renderer: LockScreenRenderer, _ state: LockScreenState) -> [UInt8] {
    var picture = LockPicture<XRGB8888>(renderer: renderer)
    _ = picture.render(state)
    return picture.frame
  }

  func renderer(_ layout: GridLayout, _ text: ScreenText) -> LockScreenRenderer {
    LockScreenRenderer(layout: layout, atlas: text.atlas, message: text.message, language: text.language)
  }

  func testTheFirstScreenAndEveryLaterOneAreThoseOfTheFullAtlas() throws {
    for language in [Language.en, .de] {
      let (firstLayout, firstText, rest) = try layOut(firstScreen: .drawPattern, language: language)
      let (fullLayout, fullText, none) = try layOut(firstScreen: nil, language: language)
      XCTAssertNil(none)
      let plan = try XCTUnwrap(rest, "a first screen leaves the rest of the glyphs")
      XCTAssertEqual(firstLayout.options.messageLines, fullLayout.options.messageLines, "the message wraps to as many lines")
      XCTAssertEqual(firstLayout.messageRect, fullLayout.messageRect)
      XCTAssertEqual(firstText.message, fullText.message)
      let (first, full) = (try XCTUnwrap(firstText.atlas), try XCTUnwrap(fullText.atlas))
      XCTAssertLessThan(first.count * 2, full.count, "\(language.code): the first screen needs fewer than half the glyphs")

      let early = renderer(firstLayout, firstText), reference = renderer(fullLayout, fullText)
      let idle = LockScreenState(prompt: .drawPattern)
      XCTAssertEqual(frame(early, idle), frame(reference, idle), "\(language.code): the first screen")

      let completion = GlyphCompletion(plan)
      completion.complete(early)
      XCTAssertEqual(early.atlas?.count, full.count)
      XCTAssertEqual(completion.full?.plane, full.plane, "the rest rendered is the full atlas")
      let later: [LockScreenState] = [
        idle,
        LockScreenState(trail: DotSequence([1, 2, 3]), appearance: .wrong, prompt: .wrongPattern),
        LockScreenState(prompt: .tooShort(minimumDots: 4)),
        LockScreenState(appearance: .wrong, prompt: .wrongPattern(triesLeft: 3)),
        LockScreenState(prompt: .tryAgain(in: 87)),
      ]
      for state in later {
        XCTAssertEqual(frame(early, state), frame(reference, state), "\(language.code): \(state.prompt.text(in: language))")
      }
    }
  }

  /// A screen made after the completion (a relock over the kiosk) has every glyph.
  func testScreensMadeAfterTheCompletionHaveEveryGlyph() throws {
    let (layout, text, rest) = try layOut(firstScreen: .drawPattern)
    let completion = GlyphCompletion(try XCTUnwrap(rest))
    let screens = RunScreens(configuration: .testing(), layout: layout, text: text, completion: completion)
    let before = screens.screen(XRGB8888.self, minimumDots: 4, prompt: .drawPattern)
    XCTAssertEqual(before.renderer.atlas?.count, text.atlas?.count)
    completion.complete(before.renderer)
    let after = screens.screen(XRGB8888.self, minimumDots: 4, prompt: .drawPattern)
    XCTAssertEqual(after.renderer.atlas?.count, completion.full?.count)
    XCTAssertGreaterThan(after.renderer.atlas?.count ?? 0, text.atlas?.count ?? 0)
  }
}
