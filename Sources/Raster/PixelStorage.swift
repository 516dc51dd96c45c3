/// How the rasteriser reads and writes one pixel of a given format.
///
/// Implemented by `XRGB8888` and `RGB565`, and used only as a generic parameter
/// (`Canvas<XRGB8888>`), so the format is chosen once per frame and each draw call is
/// specialised for it: no existential, no per-pixel switch. This is tiny-skia's
/// lesson (`src/pipeline/mod.rs`): dynamic dispatch per pixel costs more than the
/// blending it dispatches to.
///
/// Both formats blend in 8 bits per channel with `ChannelMath`; RGB565 expands on
/// load and quantises on store, so its output is the XRGB8888 output quantised.
public protocol PixelStorage {
  /// One stored pixel, in the CPU's byte order (the buffer is little-endian; see
  /// `PixelFormat`).
  associatedtype Word: FixedWidthInteger & UnsignedInteger & Sendable

  /// The DRM format this storage writes.
  static var format: PixelFormat { get }

  /// The stored word for a colour drawn opaquely (its alpha is ignored).
  static func word(for color: Color) -> Word

  /// Source-over of `color` at opacity `alpha` (0-255, colour alpha times coverage
  /// already applied; the colour's own `a` is ignored) onto a stored pixel.
  static func blend(_ color: Color, alpha: UInt32, over word: Word) -> Word

  /// The opaque colour a stored pixel shows.
  static func color(of word: Word) -> Color
}

extension PixelStorage {
  /// Bytes per stored pixel.
  @inlinable public static var bytesPerPixel: Int { MemoryLayout<Word>.size }
}
