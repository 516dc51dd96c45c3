/// A decoded image: 8-bit RGBA, rows packed, top row first.
///
/// What `PNGFile.read` returns whatever the file's own colour type, so tests compare
/// one layout only.
public struct RGBAImage: Equatable, Sendable {
  public let width: Int
  public let height: Int
  /// `width * height * 4` bytes: red, green, blue, alpha.
  public let pixels: [UInt8]

  /// Wraps decoded pixels.
  ///
  /// - Precondition: `pixels.count == width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBA size mismatch")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The red, green, blue and alpha of the pixel at (x, y).
  ///
  /// - Precondition: (x, y) is inside the image.
  public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
    let i = (y * width + x) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }
}
