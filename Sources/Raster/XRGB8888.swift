/// 32-bit pixels `0xXXRRGGBB` (DRM_FORMAT_XRGB8888): bytes B, G, R, X in memory.
///
/// Written pixels always have X = 0xFF, so a buffer reads back as opaque ARGB too
/// (scanout ignores the byte; dumps and tests can rely on it).
public struct XRGB8888: PixelStorage {
  public typealias Word = UInt32

  @inlinable public static var format: PixelFormat { .xrgb8888 }

  @inlinable public static func word(for color: Color) -> UInt32 {
    0xFF00_0000 | UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
  }

  /// Blends red and blue in one 32-bit word (two 16-bit lanes, each at most
  /// 255 * 255 + 255 before the shift, so no lane carries into the other) and green
  /// alone: three multiplies and the exact `/255` on two lanes at once.
  @inlinable public static func blend(_ color: Color, alpha: UInt32, over word: UInt32) -> UInt32 {
    let inverse = 255 &- alpha
    let sourceRB = UInt32(color.r) << 16 | UInt32(color.b)
    let destinationRB = word & 0x00FF_00FF
    var rb = sourceRB &* alpha &+ destinationRB &* inverse &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    let g = ChannelMath.blend(UInt32(color.g), over: (word >> 8) & 0xFF, alpha: alpha)
    return 0xFF00_0000 | rb | g << 8
  }

  @inlinable public static func color(of word: UInt32) -> Color {
    Color(r: UInt8(truncatingIfNeeded: word >> 16), g: UInt8(truncatingIfNeeded: word >> 8), b: UInt8(truncatingIfNeeded: word))
  }
}
