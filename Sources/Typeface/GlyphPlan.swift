import Raster

/// The glyphs an atlas is to hold, with the fonts open to render them: all at once
/// (`FontLoader.loadAtlas`), or those of the lock's first screen before its first frame
/// and the rest right after it (`atlas(holding:)`, then `atlas(holding: nil)`). The
/// fonts, the scalars each renders and the line metrics are settled when the plan is
/// made, so every atlas of one plan has the same metrics and the same bitmap for the
/// same scalar: a screen drawn with the first atlas is the one the full atlas draws.
public final class GlyphPlan {
  private let face: FontFace
  private let fallback: FontFace?
  public let pixelSize: Int
  private let metrics: (ascender: Int, descender: Int, lineHeight: Int)
  /// Every scalar of the full atlas, in the order `FontLoader` renders them, and
  /// whether the fallback font renders it.
  private let scalars: [(scalar: Unicode.Scalar, fromFallback: Bool)]

  init(face: consuming FontFace, fallback: consuming FontFace?, pixelSize: Int, extras: [Unicode.Scalar], asciiScalars: ClosedRange<UInt32>) {
    var scalars: [(scalar: Unicode.Scalar, fromFallback: Bool)] = []
    for value in asciiScalars {
      if let scalar = Unicode.Scalar(value) { scalars.append((scalar, false)) }
    }
    var lacking: [Unicode.Scalar] = []
    for scalar in extras where !asciiScalars.contains(scalar.value) && !scalars.contains(where: { $0.0 == scalar }) {
      if face.hasGlyph(for: scalar) { scalars.append((scalar, false)) } else if !lacking.contains(scalar) { lacking.append(scalar) }
    }
    var metrics = face.lineMetrics
    var usedFallback = false
    for scalar in lacking where fallback?.hasGlyph(for: scalar) == true {
      scalars.append((scalar, true))
      usedFallback = true
    }
    // The line must hold both fonts' glyphs.
    if usedFallback, let more = fallback?.lineMetrics {
      metrics = (
        max(metrics.ascender, more.ascender), max(metrics.descender, more.descender), max(metrics.lineHeight, more.lineHeight)
      )
    }
    self.face = face
    if usedFallback { self.fallback = fallback } else { self.fallback = nil }
    self.pixelSize = pixelSize
    self.metrics = metrics
    self.scalars = scalars
  }

  /// Whether the full atlas holds `scalar`.
  public func holds(_ scalar: Unicode.Scalar) -> Bool {
    scalars.contains { $0.scalar == scalar }
  }

  /// Renders the plan's scalars that are in `wanted` (all of them for nil) into an
  /// atlas with the plan's metrics.
  ///
  /// - Throws: `TypefaceError` when FreeType fails on a glyph.
  public func atlas(holding wanted: [Unicode.Scalar]?) throws(TypefaceError) -> GlyphAtlas {
    var rendered: [RenderedGlyph] = []
    for (scalar, fromFallback) in scalars where wanted?.contains(scalar) ?? true {
      // A scalar is the fallback's only when the plan kept that font.
      if fromFallback, let glyph = try fallback?.render(scalar) {
        rendered.append(glyph)
      } else {
        rendered.append(try face.render(scalar))
      }
    }
    var shapes: [GlyphAtlas.Glyph] = []
    shapes.reserveCapacity(rendered.count)
    for glyph in rendered {
      shapes.append(
        GlyphAtlas.Glyph(
          scalar: glyph.scalar, width: glyph.width, height: glyph.height,
          bearingX: glyph.bearingX, bearingY: glyph.bearingY, advance: glyph.advance))
    }
    var atlas = GlyphAtlas(
      pixelSize: pixelSize, ascender: metrics.ascender, descender: metrics.descender,
      lineHeight: metrics.lineHeight, glyphs: shapes)
    for glyph in rendered {
      guard let index = atlas.index(of: glyph.scalar) else { preconditionFailure("atlas lost a glyph") }
      for row in 0..<glyph.height {
        let start = row * glyph.width
        atlas.setMaskRow(row, ofGlyphAt: index, to: glyph.coverage[start..<(start + glyph.width)])
      }
    }
    return atlas
  }
}
