/// How one pixel is stored in a frame buffer: the two formats every KMS driver we
/// target scans out.
///
/// Both are little-endian words, as DRM defines its fourcc formats:
/// - `xrgb8888`: 32 bits, `0x00RRGGBB` (DRM_FORMAT_XRGB8888); byte order B, G, R, X.
/// - `rgb565`: 16 bits, red in bits 15-11, green 10-5, blue 4-0 (DRM_FORMAT_RGB565).
public enum PixelFormat: Sendable, CaseIterable {
  case xrgb8888
  case rgb565

  /// Bytes per pixel.
  @inlinable public var bytesPerPixel: Int {
    switch self {
    case .xrgb8888: return 4
    case .rgb565: return 2
    }
  }

  /// The DRM fourcc code, as the kernel spells it ('XR24', 'RG16').
  public var fourCC: UInt32 {
    func code(_ a: Character, _ b: Character, _ c: Character, _ d: Character) -> UInt32 {
      UInt32(a.asciiValue!) | UInt32(b.asciiValue!) << 8 | UInt32(c.asciiValue!) << 16 | UInt32(d.asciiValue!) << 24
    }
    switch self {
    case .xrgb8888: return code("X", "R", "2", "4")
    case .rgb565: return code("R", "G", "1", "6")
    }
  }

  /// The name used on the command line (`xrgb8888`, `rgb565`).
  public var name: String {
    switch self {
    case .xrgb8888: return "xrgb8888"
    case .rgb565: return "rgb565"
    }
  }

  /// The format for a command-line name, or nil.
  public init?(name: String) {
    switch name {
    case "xrgb8888": self = .xrgb8888
    case "rgb565": self = .rgb565
    default: return nil
    }
  }
}
