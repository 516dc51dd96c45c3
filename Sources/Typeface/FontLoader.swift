// Typeface: FreeType renders the glyphs the screen needs once, at start-up, into a
// `GlyphAtlas` (Raster); after that text is mask blits and FreeType is idle.
//
// Design: only this module imports CFreeType, and only the executable imports this
// module, so Raster and Scene stay pure and testable with hand-made atlases.
// Glyphs use FreeType's defaults (the hinting its build selects, 8-bit grayscale
// anti-aliasing), so output is deterministic for a given FreeType version and
// build configuration; a different FreeType may move a glyph by a pixel, which is
// why golden images of text name the font and size.
//
// Rejected: rendering glyphs on demand (a cache that can miss allocates and calls C
// in the frame loop); a baked bitmap font in the source (no DPI scaling, and
// DejaVu is already on every Debian image with fonts); subpixel (LCD) rendering
// (panels may be rotated, which breaks subpixel order, and it triples the masks).
import Raster
import SystemCalls

/// Loads a font file and renders the lock screen's character set into a `GlyphAtlas`.
public enum FontLoader {
  /// DejaVu Sans from Debian's `fonts-dejavu-core`.
  public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  /// The pixel sizes accepted: large enough to read, small enough that the atlas
  /// stays a few megabytes at most.
  public static let pixelSizes = 6...256
  /// Printable ASCII, ' ' to '~'; rendered whether or not the font maps them (an
  /// unmapped one shows the font's missing-glyph box).
  public static let asciiScalars: ClosedRange<UInt32> = 0x20...0x7E
  /// Extras beyond ASCII, rendered only when the font has them: '…' (U+2026) for
  /// shortened messages and '•' (U+2022) for entered-dot markers.
  public static let defaultExtras: [Unicode.Scalar] = ["\u{2026}", "\u{2022}"]

  /// Opens a font and renders printable ASCII and `extras` at `pixelSize`.
  ///
  /// Examines and opens the file first (`FileStatus`, `FileDescriptor.open`), so a
  /// missing or unreadable file is reported with the system's reason, then FreeType (`FT_New_Face`,
  /// `FT_Set_Pixel_Sizes`, `FT_Load_Char` with `FT_LOAD_RENDER`).
  ///
  /// - Parameters:
  ///   - path: a TrueType or OpenType file; `defaultFontPath` unless the user chose one.
  ///   - pixelSize: the em height in pixels, within `pixelSizes`.
  ///   - extras: non-ASCII scalars to include when the font has them.
  /// - Throws: `TypefaceError` saying what is wrong and what to install or pass.
  public static func loadAtlas(
    path: String = defaultFontPath, pixelSize: Int, extras: [Unicode.Scalar] = defaultExtras
  ) throws(TypefaceError) -> GlyphAtlas {
    guard pixelSizes.contains(pixelSize) else { throw .pixelSizeOutOfRange(pixelSize) }
    try checkReadable(path)
    let face = try FontFace(path: path)
    try face.setPixelSize(pixelSize)
    var rendered: [RenderedGlyph] = []
    for value in asciiScalars {
      if let scalar = Unicode.Scalar(value) { rendered.append(try face.render(scalar)) }
    }
    for scalar in extras where !asciiScalars.contains(scalar.value) && face.hasGlyph(for: scalar) {
      if !rendered.contains(where: { $0.scalar == scalar }) { rendered.append(try face.render(scalar)) }
    }
    let metrics = face.lineMetrics
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

  /// Throws `cannotOpen` with the system's reason unless `path` is a readable file.
  private static func checkReadable(_ path: String) throws(TypefaceError) {
    let status: FileStatus
    do throws(Errno) {
      status = try FileStatus(ofPath: path, followingSymlinks: true)
    } catch {
      throw .cannotOpen(path: path, reason: error.text)
    }
    guard status.kind != .directory else { throw .cannotOpen(path: path, reason: "it is a directory") }
    do throws(Errno) {
      try FileDescriptor.open(path, .readOnly).close()
    } catch {
      throw .cannotOpen(path: path, reason: error.text)
    }
  }

  /// FreeType's description of the error codes a font file can cause.
  static func describe(freeTypeError code: Int32) -> String {
    switch code {
    case 0x01: return "cannot open resource"
    case 0x02: return "unknown file format"
    case 0x03: return "broken file"
    case 0x08: return "broken table"
    case 0x14: return "invalid outline"
    case 0x17: return "invalid pixel size"
    case 0x40: return "out of memory"
    case -1: return "not an 8-bit grayscale bitmap"
    default: return "see FreeType's fterrdef.h"
    }
  }
}
