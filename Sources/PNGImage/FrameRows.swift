import CPNGShim
import Raster

/// A frame handed to `pl_png_write_rows` as its row source: each row packed to RGB
/// only when libpng is about to take it.
struct FrameRows {
  let frame: UnsafeRawBufferPointer
  let width: Int
  let stride: Int
  let format: PixelFormat

  /// The C callback: `context` is a `FrameRows`, `row` holds `width * 3` bytes.
  static let fill: pl_png_row_source = { context, y, row in
    guard let context, let row else { return }
    let rows = context.assumingMemoryBound(to: FrameRows.self).pointee
    RGBConversion.packRow(
      rows.frame, row: Int(y), width: rows.width, stride: rows.stride, format: rows.format,
      into: UnsafeMutableBufferPointer(start: row, count: rows.width * 3))
  }
}
