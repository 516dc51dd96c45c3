/// 16-bit pixels, red in bits 15-11, green 10-5, blue 4-0 (DRM_FORMAT_RGB565).
///
/// Drawn natively: a blend expands the stored channels to 8 bits by bit replication,
/// blends exactly as `XRGB8888` does and rounds back to 5/6 bits. Blending one layer
/// onto a buffer therefore gives exactly the quantised XRGB8888 result; each further
/// layer may differ from XRGB8888 by the one rounding step the 8888 buffer kept.
public struct RGB565: PixelStorage {
  public typealias Word = UInt16

  @inlinable public static var format: PixelFormat { .rgb565 }

  @inlinable public static func word(for color: Color) -> UInt16 {
    pack(r: UInt32(color.r), g: UInt32(color.g), b: UInt32(color.b))
  }

  @inlinable public static func blend(_ color: Color, alpha: UInt32, over word: UInt16) -> UInt16 {
    let stored = self.color(of: word)
    return pack(
      r: ChannelMath.blend(UInt32(color.r), over: UInt32(stored.r), alpha: alpha),
      g: ChannelMath.blend(UInt32(color.g), over: UInt32(stored.g), alpha: alpha),
      b: ChannelMath.blend(UInt32(color.b), over: UInt32(stored.b), alpha: alpha))
  }

  @inlinable public static func color(of word: UInt16) -> Color {
    let w = UInt32(word)
    return Color(
      r: UInt8(truncatingIfNeeded: ChannelMath.expand5(w >> 11)),
      g: UInt8(truncatingIfNeeded: ChannelMath.expand6((w >> 5) & 63)),
      b: UInt8(truncatingIfNeeded: ChannelMath.expand5(w & 31)))
  }

  /// Rounds 8-bit channels to 5/6/5 bits and packs them.
  @inlinable static func pack(r: UInt32, g: UInt32, b: UInt32) -> UInt16 {
    UInt16(truncatingIfNeeded: ChannelMath.quantize5(r) << 11 | ChannelMath.quantize6(g) << 5 | ChannelMath.quantize5(b))
  }
}
