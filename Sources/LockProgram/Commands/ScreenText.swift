import PatternCore
import Raster
import Scene
import Screen
import Typeface

/// Loading the lock screen's text (`ScreenText`, in Screen) for one layout.
///
/// Laid out once at start-up, in two passes: the message is wrapped to the width of
/// the layout without it (which lines do not change: they only make the band taller),
/// then the layout is made again with that many lines. Without the font there is no
/// text, so no message and no room for one.
extension ScreenText {
  /// Loads the font (when `loadingFont`) and lays out with the message.
  ///
  /// - Parameters:
  ///   - language: the prompts' language, whose glyphs the atlas gets.
  ///   - fontFailure: receives why the font could not be loaded, to say once.
  package static func layOut(
    _ options: LayoutOptions, message: String, fontPath: String, language: Language, loadingFont: Bool,
    fontFailure: (TypefaceError) -> Void
  ) throws(LayoutError) -> (layout: GridLayout, text: ScreenText) {
    let (layout, text, _) = try layOut(
      options, message: message, fontPath: fontPath, language: language, loadingFont: loadingFont, firstScreen: nil,
      fontFailure: fontFailure)
    return (layout, text)
  }

  /// As `layOut`, but with `firstScreen` the atlas holds only what the first screen
  /// shows (that prompt, the message, '?' and the loader's extras), and the plan for
  /// the rest is returned: the lock renders it once that screen is up
  /// (`GlyphCompletion`). The layout and every glyph are those of the full atlas.
  package static func layOut(
    _ options: LayoutOptions, message: String, fontPath: String, language: Language, loadingFont: Bool,
    firstScreen: PromptText?, fontFailure: (TypefaceError) -> Void
  ) throws(LayoutError) -> (layout: GridLayout, text: ScreenText, rest: GlyphPlan?) {
    var options = options
    options.messageLines = 0
    let plain = try GridLayout(options)
    guard loadingFont else { return (plain, ScreenText(atlas: nil, message: [], language: language), nil) }
    let plan: GlyphPlan
    let atlas: GlyphAtlas
    var shown = language
    do throws(TypefaceError) {
      plan = try loadPlan(path: fontPath, pixelSize: plain.fontPixels, message: message, language: &shown, said: fontFailure)
      if let firstScreen {
        var first = FontLoader.defaultExtras + ["?"]
        firstScreen.forEachScalar(in: shown) { first.append($0) }
        first.append(contentsOf: message.unicodeScalars)
        atlas = try plan.atlas(holding: first)
      } else {
        atlas = try plan.atlas(holding: nil)
      }
    } catch {
      fontFailure(error)
      return (plain, ScreenText(atlas: nil, message: [], language: language), nil)
    }
    let rest = firstScreen == nil ? nil : plan
    let lines = TextWrapping.lines(
      of: message, atlas: atlas, width: plain.messageRect.width, maximumLines: LayoutOptions.maximumMessageLines)
    guard !lines.isEmpty else { return (plain, ScreenText(atlas: atlas, message: [], language: shown), rest) }
    options.messageLines = lines.count
    return (try GridLayout(options), ScreenText(atlas: atlas, message: lines, language: shown), rest)
  }

  /// The glyphs of `language`'s prompts; where the fonts lack some of its characters,
  /// English's instead (said through `said`, and `language` becomes English): a lock
  /// whose prompts are in the wrong language still tells its user what to do.
  package static func loadAtlas(
    path: String, pixelSize: Int, message: String, language: inout Language,
    fallbackPath: String = FontLoader.fallbackFontPath, said: (TypefaceError) -> Void
  ) throws(TypefaceError) -> GlyphAtlas {
    try loadPlan(path: path, pixelSize: pixelSize, message: message, language: &language, fallbackPath: fallbackPath, said: said)
      .atlas(holding: nil)
  }

  /// What `loadAtlas` renders, settled and not yet rendered (`GlyphPlan`), with the same
  /// fallback to English.
  package static func loadPlan(
    path: String, pixelSize: Int, message: String, language: inout Language,
    fallbackPath: String = FontLoader.fallbackFontPath, said: (TypefaceError) -> Void
  ) throws(TypefaceError) -> GlyphPlan {
    do throws(TypefaceError) {
      return try loadPlan(path: path, pixelSize: pixelSize, message: message, language: language, fallbackPath: fallbackPath)
    } catch {
      guard error.isLanguageFallback else { throw error }
      said(error)
      language = .en
      return try loadPlan(path: path, pixelSize: pixelSize, message: message, language: .en, fallbackPath: fallbackPath)
    }
  }

  /// The glyphs of the language's prompts and of the message, from the font and, for
  /// what it lacks, the fallback font (`FontLoader.fallbackFontPath`).
  ///
  /// - Throws: the loader's error, or `lacksGlyphs` when neither font has every glyph
  ///   of the prompts (a message's odd character is drawn as '?' instead).
  package static func loadAtlas(
    path: String, pixelSize: Int, message: String, language: Language, fallbackPath: String = FontLoader.fallbackFontPath
  ) throws(TypefaceError) -> GlyphAtlas {
    try loadPlan(path: path, pixelSize: pixelSize, message: message, language: language, fallbackPath: fallbackPath)
      .atlas(holding: nil)
  }

  /// What `loadAtlas` renders, settled and not yet rendered; the same errors.
  package static func loadPlan(
    path: String, pixelSize: Int, message: String, language: Language, fallbackPath: String = FontLoader.fallbackFontPath
  ) throws(TypefaceError) -> GlyphPlan {
    let prompts = language.scalars
    let plan = try FontLoader.plan(
      path: path, pixelSize: pixelSize, extras: extras(for: message, language: prompts), fallbackPath: fallbackPath)
    let missing = prompts.filter { !plan.holds($0) }
    if let first = missing.first {
      throw .lacksGlyphs(language: language.code, missing: missing.count, first: first, path: path)
    }
    return plan
  }

  /// The loader's own extras, the prompts' non-ASCII scalars and the message's (a
  /// scalar no font has is left out by the loader, and drawn as '?'). Only these are
  /// rendered: the atlas grows with the catalogue, never with the font.
  package static func extras(for message: String, language prompts: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var extras = FontLoader.defaultExtras
    for scalar in prompts where scalar.value > 0x7E && !extras.contains(scalar) { extras.append(scalar) }
    for scalar in message.unicodeScalars where scalar.value > 0x7E && !extras.contains(scalar) { extras.append(scalar) }
    return extras
  }
}
