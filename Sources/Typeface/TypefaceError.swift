import PatternCore
/// Why glyphs could not be prepared. The app prints `message` once and draws no text.
public enum TypefaceError: DescribedError, Equatable, Sendable {
  /// The font file cannot be opened (missing, a directory, not readable).
  case cannotOpen(path: String, reason: String)
  /// FreeType could not read the file as a font.
  case notAFont(path: String, freeTypeError: Int32)
  /// A FreeType call failed after the font was open.
  case freeType(call: String, path: String, freeTypeError: Int32)
  /// The requested pixel size is outside `FontLoader.pixelSizes`.
  case pixelSizeOutOfRange(Int)
  /// Neither the font nor the fallback has every glyph a language's prompts use.
  case lacksGlyphs(language: String, missing: Int, first: Unicode.Scalar, path: String)

  /// Whether the prompts fall back to English (a language other than English the fonts
  /// cannot draw), rather than to no text.
  public var isLanguageFallback: Bool {
    if case .lacksGlyphs(let language, _, _, _) = self { return language != "en" }
    return false
  }

  /// One line for the user: what failed, on which file, why, and what to do.
  public var message: String {
    switch self {
    case .cannotOpen(let path, let reason):
      let fix = path == FontLoader.defaultFontPath
        ? "install it with 'apt-get install fonts-dejavu-core' or pass another font file"
        : "check the font path, or leave it out to use \(FontLoader.defaultFontPath)"
      return "cannot load font \(path): \(reason) (\(fix)); text will not be drawn"
    case .notAFont(let path, let code):
      return "cannot load font \(path): FreeType error \(code), \(FontLoader.describe(freeTypeError: code)) "
        + "(pass a TrueType or OpenType font file); text will not be drawn"
    case .freeType(let call, let path, let code):
      return "cannot render font \(path): \(call) failed with FreeType error \(code), "
        + "\(FontLoader.describe(freeTypeError: code)) (try another font file); text will not be drawn"
    case .pixelSizeOutOfRange(let size):
      return "font size \(size) pixels is out of range: use \(FontLoader.pixelSizes.lowerBound) to \(FontLoader.pixelSizes.upperBound)"
    case .lacksGlyphs(let language, let missing, let first, let path):
      var character = ""
      character.unicodeScalars.append(first)
      return "cannot draw the \(language) prompts: neither \(path) nor \(FontLoader.fallbackFontPath) has '\(character)'"
        + (missing > 1 ? " and \(missing - 1) more characters" : "")
        + " (install it with 'apt-get install \(FontLoader.fallbackFontPackage)', or choose another language)"
        + (isLanguageFallback ? "; the prompts are shown in English" : "")
    }
  }
}
