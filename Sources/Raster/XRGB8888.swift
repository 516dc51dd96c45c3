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

  /// Blends all three channels in one 64-bit word: blue, red and green each in a
  /// 16-bit lane (at bits 0, 16 and 32), each at most 255 * 255 + 255 before the
  /// shift, so no lane carries into the next. One multiply per side and the exact
  /// `/255` (`ChannelMath.divide255`) on the three lanes at once, where blending
  /// green on its own took a third multiply and a second `/255`; every edge pixel
  /// of a ring, a dot or the line goes through here.
  @inlinable public static func blend(_ color: Color, alpha: UInt32, over word: UInt32) -> UInt32 {
    let lanes: UInt64 = 0x0000_00FF_00FF_00FF
    let source = UInt64(color.g) << 32 | UInt64(color.r) << 16 | UInt64(color.b)
    let stored = UInt64(word)
    let destination = (stored & 0x00FF_00FF) | (stored & 0xFF00) << 24
    var mixed = source &* UInt64(alpha) &+ destination &* UInt64(255 &- alpha) &+ 0x0000_0080_0080_0080
    mixed = ((mixed &+ ((mixed >> 8) & lanes)) >> 8) & lanes
    return 0xFF00_0000 | UInt32(truncatingIfNeeded: mixed & 0x00FF_00FF) | UInt32(truncatingIfNeeded: mixed >> 24) & 0xFF00
  }

  @inlinable public static func color(of word: UInt32) -> Color {
    Color(r: UInt8(truncatingIfNeeded: word >> 16), g: UInt8(truncatingIfNeeded: word >> 8), b: UInt8(truncatingIfNeeded: word))
  }
}
