/// A DRM pixel format code (`DRM_FORMAT_*`), four ASCII letters in a little-endian word.
public struct FourCC: RawRepresentable, Hashable, Sendable {
  public var rawValue: UInt32
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `DRM_FORMAT_XRGB8888` ('XR24'), 32 bits per pixel.
  public static let xrgb8888 = FourCC(rawValue: 0x3432_5258)
  /// `DRM_FORMAT_RGB565` ('RG16'), 16 bits per pixel.
  public static let rgb565 = FourCC(rawValue: 0x3631_4752)

  /// Bits per pixel of the formats we scan out, for `DRM_IOCTL_MODE_CREATE_DUMB`.
  public var bitsPerPixel: UInt32? {
    switch self {
    case .xrgb8888: return 32
    case .rgb565: return 16
    default: return nil
    }
  }
}
