/// One glyph as FreeType rendered it, before it is copied into the atlas.
struct RenderedGlyph {
  let scalar: Unicode.Scalar
  let width: Int
  let height: Int
  let bearingX: Int
  let bearingY: Int
  let advance: Int
  /// `width * height` coverage bytes, rows packed, top row first.
  let coverage: [UInt8]
}
