// PNGImage: frame dumps, golden-image files and contact sheets as PNG.
//
// Design: libpng does the encoding and decoding; every libpng call sits in the C
// target CPNGShim under its own setjmp, because libpng reports errors with longjmp
// and a longjmp across Swift frames skips their cleanup. Swift converts pixels
// (RGBConversion) and turns C status codes into `PNGError`.
//
// Rejected: writing PNG in Swift (zlib's deflate would still be C, and an encoder
// is more code to trust than a call to libpng); libpng's simplified png_image API
// (it opens files itself and loses errno, so the user could not be told "does the
// directory exist?"); a packed RGB copy of each frame before writing it (a replay's
// 1920x1080 dump held 6 MiB more at its peak than with the row at a time the shim
// asks Swift for, between its libpng calls).
import CPNGShim
import Raster
import SystemCalls

/// Writes frames to PNG files and reads PNG files back.
public enum PNGFile {
  /// The largest width or height written or read.
  public static let maximumSide = Int(PL_PNG_MAXIMUM_SIDE)

  /// Writes a frame as an 8-bit RGB PNG (no alpha), replacing any file at `path`.
  ///
  /// Pixels are converted a row at a time with `RGBConversion.packRow` (RGB565 by
  /// bit replication), so no copy of the whole frame is made. Calls
  /// `pl_png_write_rows` (libpng); a failed write leaves no file.
  ///
  /// - Parameters:
  ///   - path: the file to write.
  ///   - frame: the frame's bytes, rows `stride` bytes apart.
  ///   - width: pixels per row.
  ///   - height: rows.
  ///   - stride: bytes from one row to the next.
  ///   - format: how each pixel is stored.
  /// - Throws: `PNGError` naming the path and the reason.
  public static func write(
    to path: String, frame: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, format: PixelFormat
  ) throws(PNGError) {
    RGBConversion.checkFrame(byteCount: frame.count, width: width, height: height, stride: stride, format: format)
    guard width <= maximumSide, height <= maximumSide else {
      throw .tooLarge(.write, path: path, reason: "\(width)x\(height) is too large")
    }
    var source = FrameRows(frame: frame, width: width, stride: stride, format: format)
    var status = pl_png_status()
    withUnsafeMutablePointer(to: &source) { context in
      path.withCString { cPath in
        pl_png_write_rows(cPath, UInt32(width), UInt32(height), FrameRows.fill, context, &status)
      }
    }
    try check(status, .write, path: path)
  }

  /// Writes a frame held in an array; see `write(to:frame:width:height:stride:format:)`.
  ///
  /// - Throws: `PNGError` naming the path and the reason.
  public static func write(
    to path: String, frame: [UInt8], width: Int, height: Int, stride: Int, format: PixelFormat
  ) throws(PNGError) {
    var failure: PNGError?
    frame.withUnsafeBytes { bytes in
      do throws(PNGError) {
        try write(to: path, frame: bytes, width: width, height: height, stride: stride, format: format)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Writes packed 8-bit RGB rows (3 bytes a pixel, top row first) as a PNG.
  ///
  /// Calls `pl_png_write_rgb`.
  ///
  /// - Parameters:
  ///   - path: the file to write.
  ///   - rgb: `width * height * 3` bytes.
  ///   - width: pixels per row, 1 to `maximumSide`.
  ///   - height: rows, 1 to `maximumSide`.
  /// - Throws: `PNGError` naming the path and the reason.
  public static func writeRGB(to path: String, rgb: [UInt8], width: Int, height: Int) throws(PNGError) {
    precondition(width > 0 && height > 0 && rgb.count == width * height * 3, "RGB size mismatch")
    guard width <= maximumSide, height <= maximumSide else {
      throw .tooLarge(.write, path: path, reason: "\(width)x\(height) is too large")
    }
    var status = pl_png_status()
    rgb.withUnsafeBufferPointer { bytes in
      path.withCString { cPath in
        pl_png_write_rgb(cPath, bytes.baseAddress, UInt32(width), UInt32(height), &status)
      }
    }
    try check(status, .write, path: path)
  }

  /// Reads a PNG of any colour type and bit depth as 8-bit RGBA.
  ///
  /// Calls `pl_png_read_rgba` (libpng). Images without alpha read as alpha 255.
  ///
  /// - Parameter path: the file to read.
  /// - Throws: `PNGError` naming the path and the reason.
  public static func read(from path: String) throws(PNGError) -> RGBAImage {
    var status = pl_png_status()
    var pixels: UnsafeMutablePointer<UInt8>? = nil
    var width: UInt32 = 0
    var height: UInt32 = 0
    path.withCString { cPath in
      pl_png_read_rgba(cPath, &pixels, &width, &height, &status)
    }
    defer { pl_png_free(pixels) }
    try check(status, .read, path: path)
    guard let pixels else { throw .invalidFile(path: path, reason: "no pixels decoded") }
    let count = Int(width) * Int(height) * 4
    let copy = [UInt8](UnsafeBufferPointer(start: pixels, count: count))
    return RGBAImage(width: Int(width), height: Int(height), pixels: copy)
  }

  /// Turns a C status into a `PNGError`, or returns when it is success.
  private static func check(_ status: pl_png_status, _ operation: PNGError.Operation, path: String) throws(PNGError) {
    switch status.code {
    case PL_PNG_OK:
      return
    case PL_PNG_SYSTEM:
      let errno = Errno(rawValue: status.system_errno)
      throw .system(operation, path: path, errno: errno, reason: errno.text)
    case PL_PNG_TOO_LARGE:
      throw .tooLarge(operation, path: path, reason: message(of: status))
    default:
      throw .invalidFile(path: path, reason: message(of: status))
    }
  }

  /// The NUL-terminated message inside a status.
  private static func message(of status: pl_png_status) -> String {
    var status = status
    return withUnsafeBytes(of: &status.message) { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let end = bytes.firstIndex(of: 0) ?? bytes.count
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }
  }
}
