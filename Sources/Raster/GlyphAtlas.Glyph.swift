extension GlyphAtlas {
  /// One glyph's metrics and where its mask is in the atlas plane.
  ///
  /// All values are whole pixels; y grows downwards on screen, so the mask's top
  /// row is at `baseline - bearingY`.
  public struct Glyph: Hashable, Sendable {
    /// The character this glyph draws.
    public let scalar: Unicode.Scalar
    /// The mask's width in pixels (0 for blank glyphs such as space).
    public let width: Int
    /// The mask's height in pixels.
    public let height: Int
    /// Pixels from the pen position to the mask's left edge (may be negative).
    public let bearingX: Int
    /// Pixels from the baseline up to the mask's top row (negative when the glyph
    /// lies wholly below the baseline).
    public let bearingY: Int
    /// Pixels the pen moves right after this glyph.
    public let advance: Int
    /// Index of the mask's top-left coverage byte in `GlyphAtlas.plane`.
    public internal(set) var maskOffset: Int
    /// Bytes from one mask row to the next in `GlyphAtlas.plane`.
    public internal(set) var maskStride: Int

    /// Describes a glyph; the atlas assigns `maskOffset` and `maskStride`.
    public init(scalar: Unicode.Scalar, width: Int, height: Int, bearingX: Int, bearingY: Int, advance: Int) {
      self.scalar = scalar
      self.width = width
      self.height = height
      self.bearingX = bearingX
      self.bearingY = bearingY
      self.advance = advance
      maskOffset = 0
      maskStride = width
    }
  }
}
