import PatternCore
import Raster
import Typeface

/// The lock screen's text for one layout: the font's glyphs at the layout's text size,
/// and the owner's message wrapped to the layout's text band.
///
/// Laid out once at start-up, in two passes: the message is wrapped to the width of
/// the layout without it (which lines do not change: they only make the band taller),
/// then the layout is made again with that many lines. Without the font there is no
/// text, so no message and no room for one.
struct ScreenText {
  /// The glyphs; nil draws no text.
  let atlas: GlyphAtlas?
  /// The message's lines, as many as the layout has room for.
  let message: [String]

  /// Loads the font (when `loadingFont`) and lays out with the message.
  ///
  /// - Parameter fontFailure: receives why the font could not be loaded, to say once.
  static func layOut(
    _ options: LayoutOptions, message: String, fontPath: String, loadingFont: Bool, fontFailure: (TypefaceError) -> Void
  ) throws(LayoutError) -> (layout: GridLayout, text: ScreenText) {
    var options = options
    options.messageLines = 0
    let plain = try GridLayout(options)
    guard loadingFont else { return (plain, ScreenText(atlas: nil, message: [])) }
    let atlas: GlyphAtlas
    do throws(TypefaceError) {
      atlas = try FontLoader.loadAtlas(path: fontPath, pixelSize: plain.fontPixels, extras: extras(for: message))
    } catch {
      fontFailure(error)
      return (plain, ScreenText(atlas: nil, message: []))
    }
    let lines = TextWrapping.lines(
      of: message, atlas: atlas, width: plain.messageRect.width, maximumLines: LayoutOptions.maximumMessageLines)
    guard !lines.isEmpty else { return (plain, ScreenText(atlas: atlas, message: [])) }
    options.messageLines = lines.count
    return (try GridLayout(options), ScreenText(atlas: atlas, message: lines))
  }

  /// The loader's own extras and the message's other non-ASCII scalars (a scalar the
  /// font lacks is left out by the loader, and drawn as '?').
  static func extras(for message: String) -> [Unicode.Scalar] {
    var extras = FontLoader.defaultExtras
    for scalar in message.unicodeScalars where scalar.value > 0x7E && !extras.contains(scalar) { extras.append(scalar) }
    return extras
  }
}
