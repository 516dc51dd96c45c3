import Raster

/// Frame-buffer pixels as packed 8-bit RGB, the form PNG files store.
///
/// Conversion is exact for `xrgb8888` (the X byte is dropped). `rgb565` channels are
/// widened by bit replication, `(r5 << 3) | (r5 >> 2)`, `(g6 << 2) | (g6 >> 4)`,
/// `(b5 << 3) | (b5 >> 2)`: the standard expansion, which maps 0 to 0 and the
/// channel maximum to 255 and spreads the steps evenly, so a dump of an RGB565 panel
/// looks like what the panel shows. Shifting alone (`r5 << 3`) would make white
/// (248, 252, 248).
public enum RGBConversion {
  /// The colour of one RGB565 pixel as 8-bit channels, by bit replication.
  @inlinable public static func rgb(fromRGB565 value: UInt16) -> (red: UInt8, green: UInt8, blue: UInt8) {
    let r = UInt8(truncatingIfNeeded: value >> 11)
    let g = UInt8(truncatingIfNeeded: (value >> 5) & 0x3F)
    let b = UInt8(truncatingIfNeeded: value & 0x1F)
    return ((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2))
  }

  /// Converts a frame to packed RGB rows (3 bytes a pixel, top row first).
  ///
  /// - Parameters:
  ///   - frame: the frame's bytes; rows `stride` bytes apart, pixels little-endian as
  ///     `format` says.
  ///   - width: pixels per row.
  ///   - height: rows.
  ///   - stride: bytes from one row to the next, at least `width * format.bytesPerPixel`.
  ///   - format: how each pixel is stored.
  /// - Precondition: the sizes are positive and `frame` holds every row (a caller bug
  ///   otherwise, so it traps).
  public static func packedRGB(
    _ frame: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, format: PixelFormat
  ) -> [UInt8] {
    checkFrame(byteCount: frame.count, width: width, height: height, stride: stride, format: format)
    let rowBytes = width * 3
    return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { rgb, initialized in
      for y in 0..<height {
        packRow(
          frame, row: y, width: width, stride: stride, format: format,
          into: UnsafeMutableBufferPointer(rebasing: rgb[(y * rowBytes)..<((y + 1) * rowBytes)]))
      }
      initialized = rowBytes * height
    }
  }

  /// Converts one row of a frame to packed RGB (3 bytes a pixel): what a PNG is
  /// written from a row at a time, with no copy of the whole frame.
  ///
  /// - Parameters:
  ///   - frame: the frame's bytes, as for `packedRGB`.
  ///   - row: the row, from 0 at the top.
  ///   - width: pixels per row.
  ///   - stride: bytes from one row to the next.
  ///   - format: how each pixel is stored.
  ///   - rgb: at least `width * 3` bytes.
  /// - Precondition: as for `packedRGB`; the frame holds the row and `rgb` fits it.
  public static func packRow(
    _ frame: UnsafeRawBufferPointer, row: Int, width: Int, stride: Int, format: PixelFormat,
    into rgb: UnsafeMutableBufferPointer<UInt8>
  ) {
    precondition(rgb.count >= width * 3, "RGB row is shorter than the frame's")
    precondition(row >= 0 && frame.count >= row * stride + width * format.bytesPerPixel, "frame is shorter than its rows")
    var i = row * stride
    var out = 0
    switch format {
    case .xrgb8888:
      for _ in 0..<width {
        rgb[out] = frame[i + 2]
        rgb[out + 1] = frame[i + 1]
        rgb[out + 2] = frame[i]
        out += 3
        i += 4
      }
    case .rgb565:
      for _ in 0..<width {
        let c = RGBConversion.rgb(fromRGB565: UInt16(frame[i]) | UInt16(frame[i + 1]) << 8)
        rgb[out] = c.red
        rgb[out + 1] = c.green
        rgb[out + 2] = c.blue
        out += 3
        i += 2
      }
    }
  }

  /// Traps when a frame's description does not fit its bytes.
  static func checkFrame(byteCount: Int, width: Int, height: Int, stride: Int, format: PixelFormat) {
    precondition(width > 0 && height > 0, "frame size must be positive")
    precondition(stride >= width * format.bytesPerPixel, "stride is shorter than a row")
    precondition(byteCount >= stride * (height - 1) + width * format.bytesPerPixel, "frame is shorter than its rows")
  }
}
