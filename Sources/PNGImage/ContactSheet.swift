import Raster

/// Many frames on one image: each frame shrunk by a whole factor and placed in a
/// grid, cells divided by a thin separator line.
///
/// Made for looking at a recorded session at a glance (`--dump` of 200 frames is
/// 200 files; one sheet shows the gesture). Not a per-frame path, so it allocates
/// its sheet once at `init` and converts pixel by pixel.
///
/// Downscaling is an integer box filter: a thumbnail pixel is the mean of the
/// `scale` x `scale` frame pixels it covers, per channel, rounded half up. Frame
/// columns and rows past the last whole box are dropped. Chosen over bilinear or
/// nearest-neighbour because it is exact integer maths and keeps thin 1-pixel lines
/// visible as a lighter line rather than dropping them.
///
/// Layout: `columns` cells a row, as many rows as `frameCount` needs; a
/// `separator`-pixel line around and between cells in `separatorColour`. Cells with
/// no frame stay black. The sheet is XRGB8888, `stride == width * 4`.
public struct ContactSheet: Sendable {
  /// The width of every frame placed on the sheet.
  public let frameWidth: Int
  /// The height of every frame placed on the sheet.
  public let frameHeight: Int
  /// How many cells the sheet has.
  public let frameCount: Int
  /// Cells per row.
  public let columns: Int
  /// Rows of cells.
  public let rows: Int
  /// The box size: each thumbnail pixel is the mean of `scale` x `scale` frame pixels.
  public let scale: Int
  /// The width of the lines around and between cells.
  public let separator: Int
  /// `frameWidth / scale`, rounded down.
  public let thumbnailWidth: Int
  /// `frameHeight / scale`, rounded down.
  public let thumbnailHeight: Int
  /// The sheet's width in pixels.
  public let width: Int
  /// The sheet's height in pixels.
  public let height: Int
  /// The sheet's XRGB8888 pixels, little-endian `0x00RRGGBB`, rows `stride` apart.
  public private(set) var pixels: [UInt8]

  /// Bytes from one sheet row to the next.
  public var stride: Int { width * 4 }

  /// Lays out an empty sheet.
  ///
  /// - Parameters:
  ///   - frameWidth: width of every frame placed on it.
  ///   - frameHeight: height of every frame.
  ///   - frameCount: how many cells to lay out (at least 1).
  ///   - columns: cells per row (at least 1; fewer are used when `frameCount` is smaller).
  ///   - scale: the box size, at least 1 and at most each frame side.
  ///   - separator: width of the lines around and between cells, 0 or more.
  ///   - separatorColour: the lines' colour, `0x00RRGGBB`.
  /// - Precondition: the arguments are in range (a caller bug otherwise).
  public init(
    frameWidth: Int, frameHeight: Int, frameCount: Int, columns: Int, scale: Int,
    separator: Int = 1, separatorColour: UInt32 = 0x0080_8080
  ) {
    precondition(frameWidth > 0 && frameHeight > 0 && frameCount > 0 && columns > 0, "contact sheet sizes must be positive")
    precondition(scale >= 1 && scale <= frameWidth && scale <= frameHeight, "scale must be 1 to the frame's shorter side")
    precondition(separator >= 0, "separator must not be negative")
    self.frameWidth = frameWidth
    self.frameHeight = frameHeight
    self.frameCount = frameCount
    self.columns = min(columns, frameCount)
    self.rows = (frameCount + self.columns - 1) / self.columns
    self.scale = scale
    self.separator = separator
    thumbnailWidth = frameWidth / scale
    thumbnailHeight = frameHeight / scale
    width = self.columns * thumbnailWidth + (self.columns + 1) * separator
    height = rows * thumbnailHeight + (rows + 1) * separator
    pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width where isSeparator(x: x, y: y) {
        store(separatorColour, x: x, y: y)
      }
    }
  }

  /// The top-left corner of cell `index` on the sheet.
  ///
  /// - Precondition: `index` is 0 to `frameCount - 1`.
  public func origin(ofCell index: Int) -> (x: Int, y: Int) {
    precondition(index >= 0 && index < frameCount, "cell index out of range")
    let column = index % columns, row = index / columns
    return (separator + column * (thumbnailWidth + separator), separator + row * (thumbnailHeight + separator))
  }

  /// Shrinks a frame and draws it into cell `index`, replacing what was there.
  ///
  /// - Parameters:
  ///   - frame: the frame's bytes, `frameWidth` x `frameHeight` pixels.
  ///   - stride: bytes from one frame row to the next.
  ///   - format: how the frame's pixels are stored.
  ///   - index: the cell, 0 to `frameCount - 1`, row-major.
  /// - Precondition: the frame fits its description and `index` is in range.
  public mutating func place(_ frame: UnsafeRawBufferPointer, stride frameStride: Int, format: PixelFormat, at index: Int) {
    RGBConversion.checkFrame(
      byteCount: frame.count, width: frameWidth, height: frameHeight, stride: frameStride, format: format)
    let (cellX, cellY) = origin(ofCell: index)
    let area = UInt32(scale * scale)
    var sums = [UInt32](repeating: 0, count: thumbnailWidth * 3)
    for ty in 0..<thumbnailHeight {
      for i in sums.indices { sums[i] = 0 }
      for sy in (ty * scale)..<(ty * scale + scale) {
        let row = sy * frameStride
        for tx in 0..<thumbnailWidth {
          for sx in (tx * scale)..<(tx * scale + scale) {
            let c = ContactSheet.rgb(frame, at: row + sx * format.bytesPerPixel, format: format)
            sums[tx * 3] += c.red
            sums[tx * 3 + 1] += c.green
            sums[tx * 3 + 2] += c.blue
          }
        }
      }
      for tx in 0..<thumbnailWidth {
        let r = (sums[tx * 3] + area / 2) / area
        let g = (sums[tx * 3 + 1] + area / 2) / area
        let b = (sums[tx * 3 + 2] + area / 2) / area
        store(r << 16 | g << 8 | b, x: cellX + tx, y: cellY + ty)
      }
    }
  }

  /// Places a frame held in an array; see `place(_:stride:format:at:)`.
  public mutating func place(_ frame: [UInt8], stride frameStride: Int, format: PixelFormat, at index: Int) {
    frame.withUnsafeBytes { bytes in place(bytes, stride: frameStride, format: format, at: index) }
  }

  /// The sheet pixel at (x, y) as `0x00RRGGBB`.
  ///
  /// - Precondition: (x, y) is on the sheet.
  public func pixel(x: Int, y: Int) -> UInt32 {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the sheet")
    let i = y * stride + x * 4
    return UInt32(pixels[i]) | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]) << 16
  }

  /// Whether (x, y) lies on a separator line rather than in a cell.
  private func isSeparator(x: Int, y: Int) -> Bool {
    let pitchX = thumbnailWidth + separator, pitchY = thumbnailHeight + separator
    return x % pitchX < separator || y % pitchY < separator
  }

  private mutating func store(_ colour: UInt32, x: Int, y: Int) {
    let i = y * stride + x * 4
    pixels[i] = UInt8(truncatingIfNeeded: colour)
    pixels[i + 1] = UInt8(truncatingIfNeeded: colour >> 8)
    pixels[i + 2] = UInt8(truncatingIfNeeded: colour >> 16)
    pixels[i + 3] = 0
  }

  private static func rgb(
    _ frame: UnsafeRawBufferPointer, at i: Int, format: PixelFormat
  ) -> (red: UInt32, green: UInt32, blue: UInt32) {
    switch format {
    case .xrgb8888:
      return (UInt32(frame[i + 2]), UInt32(frame[i + 1]), UInt32(frame[i]))
    case .rgb565:
      let c = RGBConversion.rgb(fromRGB565: UInt16(frame[i]) | UInt16(frame[i + 1]) << 8)
      return (UInt32(c.red), UInt32(c.green), UInt32(c.blue))
    }
  }
}
