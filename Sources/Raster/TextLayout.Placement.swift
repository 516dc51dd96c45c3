import PatternCore

extension TextLayout {
  /// Where one glyph's mask goes: its top-left pixel on the target.
  public struct Placement: Hashable, Sendable {
    /// The glyph; its mask is `width` x `height` at `maskOffset` in the atlas plane.
    public let glyph: GlyphAtlas.Glyph
    /// The column of the mask's left edge.
    public let x: Int
    /// The row of the mask's top edge.
    public let y: Int

    /// A glyph's mask at a pixel.
    public init(glyph: GlyphAtlas.Glyph, x: Int, y: Int) {
      self.glyph = glyph
      self.x = x
      self.y = y
    }

    /// The pixels the mask covers (empty for blank glyphs).
    public var rect: Rect { Rect(x: x, y: y, width: glyph.width, height: glyph.height) }
  }
}
