import CShim
import PatternCore
import Raster
import SystemCalls

/// What an fbdev device is, before a display is made of it: open, asked for its
/// layout, and sorted into the two formats the lock draws.
public enum FBDevLayout {
  /// An open device and what it said of itself.
  public struct Opened: ~Copyable {
    public let path: String
    public let file: FileDescriptor
    public let info: pl_fb_info
    public var driver: String {
      withUnsafeBytes(of: info.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
    /// RGB565 or XRGB8888, or nil for any other layout.
    public var format: PixelFormat? { FBDevLayout.format(of: info) }
  }

  /// A frame buffer in memory, XRGB8888 at `width` x `height`, for `run --headless`: an
  /// anonymous file (memfd) with the layout a device would report, so the lock draws
  /// into it through this back-end as it would into /dev/fbN.
  ///
  /// - Throws: `FBDevError.callFailed` when the file cannot be made.
  public static func inMemory(width: Int, height: Int) throws(FBDevError) -> Opened {
    let lineLength = width * 4
    let fd = pl_memory_file("patternlock-headless", lineLength * height)
    guard fd >= 0 else { throw .callFailed(call: "memfd_create", path: "memory", errno: Errno.current) }
    var info = pl_fb_info()
    (info.xres, info.yres) = (UInt32(width), UInt32(height))
    (info.xres_virtual, info.yres_virtual) = (UInt32(width), UInt32(height))
    info.bits_per_pixel = 32
    (info.red_offset, info.red_length, info.green_offset, info.green_length) = (16, 8, 8, 8)
    (info.blue_offset, info.blue_length) = (0, 8)
    info.line_length = UInt32(lineLength)
    info.smem_len = UInt32(lineLength * height)
    info.type = UInt32(PL_FB_TYPE_PACKED_PIXELS)
    info.visual = UInt32(PL_FB_VISUAL_TRUECOLOR)
    withUnsafeMutableBytes(of: &info.id) { id in
      for (i, byte) in "headless".utf8.enumerated() { id[i] = byte }
    }
    return Opened(path: "memory", file: FileDescriptor(owning: fd), info: info)
  }

  /// Opens `path` and reads its layout.
  ///
  /// - Throws: `FBDevError` naming the device and what to do.
  public static func open(_ path: String) throws(FBDevError) -> Opened {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readWrite)
    } catch {
      switch error {
      case .noEntry: throw .noDevice(path: path)
      case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
      default: throw .callFailed(call: "open", path: path, errno: error)
      }
    }
    var info = pl_fb_info()
    let fd = file.rawValue
    guard resultRetryingInterrupts({ pl_fb_get_info(fd, &info) }) == 0 else {
      let errno = Errno.current
      if errno == .notTerminal || errno == .invalid { throw .notFramebuffer(path: path) }
      throw .callFailed(call: "FBIOGET_VSCREENINFO", path: path, errno: errno)
    }
    return Opened(path: path, file: file, info: info)
  }

  /// The format whose bits the device's layout is, or nil.
  public static func format(of info: pl_fb_info) -> PixelFormat? {
    guard info.type == UInt32(PL_FB_TYPE_PACKED_PIXELS), info.visual == UInt32(PL_FB_VISUAL_TRUECOLOR),
      info.grayscale == 0, info.nonstd == 0, info.msb_right == 0
    else { return nil }
    let channels = (info.red_offset, info.red_length, info.green_offset, info.green_length, info.blue_offset, info.blue_length)
    if info.bits_per_pixel == 16, channels == (11, 5, 5, 6, 0, 5) { return .rgb565 }
    if info.bits_per_pixel == 32, channels == (16, 8, 8, 8, 0, 8) { return .xrgb8888 }
    return nil
  }

  /// `16 bits, red 11/5 green 5/6 blue 0/5`: the layout, for the refusal.
  public static func describe(_ info: pl_fb_info) -> String {
    var text = "\(info.bits_per_pixel) bits, red \(info.red_offset)/\(info.red_length), green \(info.green_offset)/\(info.green_length), "
    text += "blue \(info.blue_offset)/\(info.blue_length)"
    if info.visual != UInt32(PL_FB_VISUAL_TRUECOLOR) { text += ", visual \(info.visual) (not true colour)" }
    if info.type != UInt32(PL_FB_TYPE_PACKED_PIXELS) { text += ", type \(info.type) (not packed pixels)" }
    if info.grayscale != 0 { text += ", greyscale" }
    return text
  }

  /// Whether there is a device at `path` to try (one that exists but cannot be used
  /// counts: its own error is then the one to see).
  public static func exists(_ path: String) -> Bool {
    do throws(FBDevError) {
      _ = try open(path)
      return true
    } catch {
      return error != .noDevice(path: path)
    }
  }

  /// Whether `path` names an fbdev node (`/dev/fb0`, `/dev/fb/0`) rather than a DRM card.
  public static func isFramebufferPath(_ path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasPrefix("fb") || path.hasPrefix("/dev/fb/")
  }
}
