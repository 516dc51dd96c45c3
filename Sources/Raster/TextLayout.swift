import PatternCore

/// Places a one-line string's glyphs from a `GlyphAtlas`: its advance width, each
/// glyph's mask position, and the box its ink covers.
///
/// Pure and allocation-free (the string's scalars are walked in place and
/// placements are handed to a non-escaping closure), so it can run per frame.
/// Layout is left to right, one line, whole pixels: the pen starts at `x`, each
/// glyph's mask goes at `(pen + bearingX, baseline - bearingY)`, and the pen moves by
/// the glyph's `advance`. No kerning, no shaping; that is all ASCII prompts need.
///
/// A scalar the atlas lacks is drawn as `fallback` ('?') when the atlas has that,
/// else skipped with no advance, so an odd byte in a message never stops the screen.
public enum TextLayout {
  /// Drawn in place of scalars the atlas lacks.
  public static let fallback: Unicode.Scalar = "?"

  /// The pen advance of a string: the sum of its glyphs' advances, in pixels.
  ///
  /// Use it to centre or right-align text; the ink may reach a pixel or two past it
  /// (see `inkBounds`).
  public static func width(of text: String, in atlas: GlyphAtlas) -> Int {
    var width = 0
    for scalar in text.unicodeScalars {
      if let glyph = glyph(for: scalar, in: atlas) { width += glyph.advance }
    }
    return width
  }

  /// Calls `body` once per drawn glyph with where its mask goes, left to right.
  ///
  /// - Parameters:
  ///   - text: one line of text.
  ///   - atlas: the glyphs.
  ///   - x: the pen's start, in pixels.
  ///   - baseline: the baseline's row, in pixels.
  ///   - body: receives each placement; blank glyphs (space) are included.
  public static func forEachGlyph(
    in text: String, atlas: GlyphAtlas, x: Int, baseline: Int, _ body: (Placement) -> Void
  ) {
    var pen = x
    for scalar in text.unicodeScalars {
      guard let glyph = glyph(for: scalar, in: atlas) else { continue }
      body(Placement(glyph: glyph, x: pen + glyph.bearingX, y: baseline - glyph.bearingY))
      pen += glyph.advance
    }
  }

  /// The smallest rectangle holding every mask of the string (empty for blank text).
  ///
  /// This is the damage rectangle for redrawing the text.
  ///
  /// - Parameters:
  ///   - text: one line of text.
  ///   - atlas: the glyphs.
  ///   - x: the pen's start, in pixels.
  ///   - baseline: the baseline's row, in pixels.
  public static func inkBounds(of text: String, atlas: GlyphAtlas, x: Int, baseline: Int) -> Rect {
    var bounds = Rect.empty
    forEachGlyph(in: text, atlas: atlas, x: x, baseline: baseline) { placement in
      let rect = placement.rect
      if !rect.isEmpty { bounds = bounds.union(rect) }
    }
    return bounds
  }

  /// The glyph drawn for a scalar: its own, the fallback, or nil.
  public static func glyph(for scalar: Unicode.Scalar, in atlas: GlyphAtlas) -> GlyphAtlas.Glyph? {
    atlas.glyph(for: scalar) ?? atlas.glyph(for: fallback)
  }
}
