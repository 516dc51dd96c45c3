/// The integer arithmetic shared by every pixel format: exact division by 255,
/// source-over blending of one channel, and 8-bit <-> 5/6-bit conversions.
///
/// All of it is exact integer maths so that a frame is bit-identical on x86_64 and
/// aarch64 and so that RGB565 output is, by construction, the quantised XRGB8888
/// output (both blend in 8 bits; RGB565 only converts on load and store).
public enum ChannelMath {
  /// `x / 255` rounded to nearest, exactly, for `0 <= x <= 255 * 255`.
  ///
  /// Jim Blinn's identity ("Three wrongs make a right", IEEE CG&A 1995): with
  /// `t = x + 128`, `(t + t >> 8) >> 8` is `round(x / 255)` over that range. No
  /// division instruction, which on the Cortex-A53 matters for every edge pixel.
  @inlinable public static func divide255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
  }

  /// One channel of source-over: `(source * alpha + destination * (255 - alpha)) / 255`,
  /// rounded to nearest.
  ///
  /// - Parameters:
  ///   - source: the drawn channel, 0-255.
  ///   - destination: the channel already in the buffer, 0-255.
  ///   - alpha: the effective opacity (colour alpha times coverage), 0-255.
  @inlinable public static func blend(_ source: UInt32, over destination: UInt32, alpha: UInt32) -> UInt32 {
    divide255(source &* alpha &+ destination &* (255 &- alpha))
  }

  /// Colour alpha scaled by coverage, both 0-255, rounded to nearest.
  @inlinable public static func effectiveAlpha(_ alpha: UInt8, coverage: UInt8) -> UInt32 {
    divide255(UInt32(alpha) &* UInt32(coverage))
  }

  /// A 5-bit channel expanded to 8 bits by bit replication (0 -> 0, 31 -> 255).
  @inlinable public static func expand5(_ v: UInt32) -> UInt32 { (v << 3) | (v >> 2) }
  /// A 6-bit channel expanded to 8 bits by bit replication (0 -> 0, 63 -> 255).
  @inlinable public static func expand6(_ v: UInt32) -> UInt32 { (v << 2) | (v >> 4) }
  /// An 8-bit channel quantised to 5 bits, rounded to nearest: `round(v * 31 / 255)`.
  ///
  /// `quantize5(expand5(v)) == v` for every 5-bit `v`, so loading and storing an
  /// untouched pixel never drifts.
  @inlinable public static func quantize5(_ v: UInt32) -> UInt32 { divide255(v &* 31) }
  /// An 8-bit channel quantised to 6 bits, rounded to nearest: `round(v * 63 / 255)`.
  @inlinable public static func quantize6(_ v: UInt32) -> UInt32 { divide255(v &* 63) }
}
