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
// Scripts the first font lacks come from a second one, the fallback (WenQuanYi Micro
// Hei for Chinese, from Debian's fonts-wqy-microhei): each scalar from the first font
// that has it, so Latin text stays DejaVu and its frames do not change. Only the
// scalars asked for are rendered, never the fallback's 20,000 ideographs.
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
  /// WenQuanYi Micro Hei from Debian's `fonts-wqy-microhei`: the glyphs DejaVu lacks
  /// (Chinese). A TrueType collection; its first face is the proportional one.
  public static let fallbackFontPath = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
  /// The Debian package that installs `fallbackFontPath`.
  public static let fallbackFontPackage = "fonts-wqy-microhei"
  /// The pixel sizes accepted: large enough to read, small enough that the atlas
  /// stays a few megabytes at most.
  public static let pixelSizes = 6...256
  /// Printable ASCII, ' ' to '~'; rendered whether or not the font maps them (an
  /// unmapped one shows the font's missing-glyph box).
  public static let asciiScalars: ClosedRange<UInt32> = 0x20...0x7E
  /// Extras beyond ASCII, rendered only when the font has them: '…' (U+2026) for
  /// shortened messages and '•' (U+2022) for entered-dot markers.
  public static let defaultExtras: [Unicode.Scalar] = ["\u{2026}", "\u{2022}"]

  /// Opens a font and renders printable ASCII and `extras` at `pixelSize`; extras the
  /// font lacks are rendered from `fallbackPath` when that font has them.
  ///
  /// Examines and opens the file first (`FileStatus`, `FileDescriptor.open`), so a
  /// missing or unreadable file is reported with the system's reason, then FreeType (`FT_New_Face`,
  /// `FT_Set_Pixel_Sizes`, `FT_Load_Char` with `FT_LOAD_RENDER`).
  ///
  /// - Parameters:
  ///   - path: a TrueType or OpenType file; `defaultFontPath` unless the user chose one.
  ///   - pixelSize: the em height in pixels, within `pixelSizes`.
  ///   - extras: non-ASCII scalars to include when the font (or the fallback) has them.
  ///   - fallbackPath: a second font, opened only when the first lacks one of `extras`.
  ///     Best effort: when it cannot be opened its scalars are left out (drawn as '?'),
  ///     and the caller, who knows which scalars it needs, says so.
  /// - Throws: `TypefaceError` saying what is wrong with the first font and what to
  ///   install or pass.
  public static func loadAtlas(
    path: String = defaultFontPath, pixelSize: Int, extras: [Unicode.Scalar] = defaultExtras, fallbackPath: String? = nil
  ) throws(TypefaceError) -> GlyphAtlas {
    try plan(path: path, pixelSize: pixelSize, extras: extras, fallbackPath: fallbackPath).atlas(holding: nil)
  }

  /// Opens the fonts and settles what `loadAtlas` would render, without rendering it
  /// (`GlyphPlan`): the fallback font is opened only when the first lacks one of
  /// `extras`, and kept only when it has one. Parameters and errors as `loadAtlas`'s.
  public static func plan(
    path: String = defaultFontPath, pixelSize: Int, extras: [Unicode.Scalar] = defaultExtras, fallbackPath: String? = nil
  ) throws(TypefaceError) -> GlyphPlan {
    guard pixelSizes.contains(pixelSize) else { throw .pixelSizeOutOfRange(pixelSize) }
    let face = try openFace(path, pixelSize: pixelSize)
    let lacksSome = extras.contains { !asciiScalars.contains($0.value) && !face.hasGlyph(for: $0) }
    var fallback: FontFace? = nil
    if lacksSome, let fallbackPath { fallback = try? openFace(fallbackPath, pixelSize: pixelSize) }
    return GlyphPlan(face: face, fallback: fallback, pixelSize: pixelSize, extras: extras, asciiScalars: asciiScalars)
  }

  /// Opens a font file at a pixel size.
  private static func openFace(_ path: String, pixelSize: Int) throws(TypefaceError) -> FontFace {
    try checkReadable(path)
    let face = try FontFace(path: path)
    try face.setPixelSize(pixelSize)
    return face
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
