import Raster
import Scene

/// The lock screen's text for one layout: the font's glyphs at the layout's text size,
/// the owner's message wrapped to the layout's text band, and the language the prompts
/// are drawn in. The executable loads it (`ScreenText.layOut`, with the font); without a
/// font there is no text, so no message and no room for one.
public struct ScreenText {
  /// The glyphs; nil draws no text.
  public let atlas: GlyphAtlas?
  /// The message's lines, as many as the layout has room for.
  public let message: [String]
  /// The prompts' language: the one asked for, or English where the fonts lack its
  /// characters.
  public var language: Language

  public init(atlas: GlyphAtlas?, message: [String], language: Language) {
    self.atlas = atlas
    self.message = message
    self.language = language
  }

  /// No glyphs and no message, in `language` (as when no font could be loaded).
  public static func none(_ language: Language) -> ScreenText { ScreenText(atlas: nil, message: [], language: language) }
}
