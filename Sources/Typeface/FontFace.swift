import CFreeType

/// An open FreeType face and the library instance that owns it, freed together.
///
/// One `~Copyable` value owns both because `FT_Done_FreeType` also frees the library's
/// faces: separate owners could free a face twice, depending on destruction order.
struct FontFace: ~Copyable {
  private let library: FT_Library
  private let face: FT_Face
  let path: String

  /// Opens a font file (`FT_Init_FreeType`, `FT_New_Face`, face 0).
  ///
  /// - Throws: `TypefaceError.notAFont` when FreeType cannot read it, `.freeType`
  ///   when the library cannot start.
  init(path: String) throws(TypefaceError) {
    var library: FT_Library? = nil
    let initError = FT_Init_FreeType(&library)
    guard initError == 0, let library else {
      throw .freeType(call: "FT_Init_FreeType", path: path, freeTypeError: Int32(initError))
    }
    var face: FT_Face? = nil
    let faceError = path.withCString { FT_New_Face(library, $0, 0, &face) }
    guard faceError == 0, let face else {
      FT_Done_FreeType(library)
      throw .notAFont(path: path, freeTypeError: Int32(faceError))
    }
    self.library = library
    self.face = face
    self.path = path
  }

  deinit {
    FT_Done_Face(face)
    FT_Done_FreeType(library)
  }

  /// Selects the em height in pixels (`FT_Set_Pixel_Sizes`).
  ///
  /// - Throws: `TypefaceError.freeType` (a bitmap-only font without that size).
  func setPixelSize(_ pixels: Int) throws(TypefaceError) {
    let error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels))
    guard error == 0 else { throw .freeType(call: "FT_Set_Pixel_Sizes", path: path, freeTypeError: Int32(error)) }
  }

  /// The size's ascender, descender (positive, below the baseline) and line height,
  /// in whole pixels: FreeType's 26.6 values rounded outwards, so the box holds
  /// every glyph.
  var lineMetrics: (ascender: Int, descender: Int, lineHeight: Int) {
    let metrics = face.pointee.size.pointee.metrics
    let ascender = (Int(metrics.ascender) + 63) >> 6
    let descender = max(0, -(Int(metrics.descender) >> 6))
    let height = (Int(metrics.height) + 63) >> 6
    return (max(0, ascender), descender, max(height, ascender + descender))
  }

  /// Whether the font maps the scalar to a real glyph (`FT_Get_Char_Index` is not 0).
  func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
  }

  /// Renders one glyph with FreeType's defaults (hinted outline, 8-bit grayscale
  /// anti-aliasing: `FT_Load_Char` with `FT_LOAD_RENDER`) and copies its coverage.
  ///
  /// - Throws: `TypefaceError.freeType` when loading fails or the bitmap is not 8-bit gray.
  func render(_ scalar: Unicode.Scalar) throws(TypefaceError) -> RenderedGlyph {
    let error = FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER))
    guard error == 0 else { throw .freeType(call: "FT_Load_Char", path: path, freeTypeError: Int32(error)) }
    let slot = face.pointee.glyph.pointee
    let bitmap = slot.bitmap
    let width = Int(bitmap.width), height = Int(bitmap.rows)
    // 26.6 to whole pixels, to nearest: hinted advances are whole pixels already.
    let advance = (Int(slot.advance.x) + 32) >> 6
    var coverage = [UInt8](repeating: 0, count: width * height)
    if width > 0 && height > 0 {
      guard UInt32(bitmap.pixel_mode) == FT_PIXEL_MODE_GRAY.rawValue, bitmap.num_grays == 256, let buffer = bitmap.buffer else {
        throw .freeType(call: "FT_Render_Glyph (8-bit gray)", path: path, freeTypeError: -1)
      }
      // A negative pitch means rows are stored bottom-up in memory.
      let pitch = Int(bitmap.pitch)
      for row in 0..<height {
        let source = pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch
        for x in 0..<width { coverage[row * width + x] = buffer[source + x] }
      }
    }
    return RenderedGlyph(
      scalar: scalar, width: width, height: height, bearingX: Int(slot.bitmap_left),
      bearingY: Int(slot.bitmap_top), advance: max(0, advance), coverage: coverage)
  }
}
