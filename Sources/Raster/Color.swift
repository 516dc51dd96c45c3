/// A colour with straight (not premultiplied) alpha, 8 bits per channel.
///
/// Straight alpha because every colour in the lock screen comes from a theme as
/// "this RGB at this opacity"; premultiplying is a per-draw detail of blending (see
/// `ChannelMath`), not something callers should have to get right.
public struct Color: Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  /// Opacity: 0 is invisible, 255 opaque.
  public var a: UInt8

  /// Makes a colour from its channels; opaque unless `a` says otherwise.
  @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// Makes a colour from positional channels: `Color(r, g, b, a)`.
  @inlinable public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    self.init(r: r, g: g, b: b, a: a)
  }

  /// The same colour with another opacity.
  @inlinable public func withAlpha(_ alpha: UInt8) -> Color { Color(r: r, g: g, b: b, a: alpha) }

  public static let black = Color(r: 0, g: 0, b: 0)
  public static let white = Color(r: 255, g: 255, b: 255)
  public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
}
