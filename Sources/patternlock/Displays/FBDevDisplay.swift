import CShim
import KMS
import PatternCore
import Raster
import Screen
import SystemCalls

/// The display back-end for boards where only `/dev/fbN` exists (fbtft SPI panels on
/// older images, or a DRM driver's fbdev emulation): the device's memory mapped once,
/// and each frame's damaged rectangle written into it, never read back.
///
/// The device's own pixel layout decides `Pixel`: 16 bits with red, green and blue at
/// bits 11, 5 and 0 (5, 6, 5 long) is RGB565, 32 bits with them at 16, 8 and 0 (8 bits
/// each) is XRGB8888; any other layout is refused (`FBDevLayout`). One buffer, the
/// visible one (at the device's x and y offset): fbdev has no vblank-synchronised
/// flip, and the writes are the damage only, so what tears is at most one rectangle.
/// Panning between two pages is not used even where the virtual height allows it:
/// fbtft cannot pan, and DRM's fbdev emulation for link-attached panels sends the whole
/// page over the link on every pan, where the single buffer sends only the damage.
/// Every show completes at once (no flip events). Idle blanking powers the output down
/// with FBIOBLANK; a driver that cannot (EINVAL) gets black frames instead, and the
/// output is powered up again when the display is given back.
struct FBDevDisplay<Pixel: PixelStorage>: LockDisplay, ~Copyable {
  typealias Failure = FBDevError
  let path: String
  let width: Int
  let height: Int
  let widthMillimetres: Int
  /// The driver's name (fix.id), for the start-up line.
  let driver: String
  private let file: FileDescriptor
  private let mapping: UnsafeMutableRawPointer
  private let length: Int
  /// Bytes per row of the device's memory, and where the visible frame starts in it.
  private let lineLength: Int
  private let origin: Int

  var pollDescriptor: Int32 { -1 }
  var hotplugDescriptor: Int32 { -1 }
  var isFlipPending: Bool { false }
  private(set) var isOutputOff = false
  var canSwitchOff: Bool { true }
  var canHandOver: Bool { false }
  mutating func handOver() {}
  var panelRotation: Rotation { .none }
  var summary: String { "\(path) (\(driver), \(width)x\(height), \(Pixel.format.name), fbdev)" }
  static func commandFailure(_ error: FBDevError) -> CommandFailure { .framebuffer(error) }

  /// Opens and maps the device whose layout is `Pixel`'s (`FBDevLayout.open` first
  /// reads which one that is).
  init(_ opened: consuming FBDevLayout.Opened) throws(FBDevError) {
    let info = opened.info
    let length = Int(info.smem_len)
    guard let mapping = pl_mmap_shared(opened.file.rawValue, length, 0) else {
      throw .callFailed(call: "mmap", path: opened.path, errno: Errno.current)
    }
    path = opened.path
    width = Int(info.xres)
    height = Int(info.yres)
    let millimetres = Int(info.width_mm)
    widthMillimetres = millimetres > 0 && millimetres < 10_000 ? millimetres : 0
    driver = opened.driver
    lineLength = Int(info.line_length)
    origin = Int(info.yoffset) * lineLength + Int(info.xoffset) * Pixel.bytesPerPixel
    self.mapping = mapping
    self.length = length
    file = opened.file
    // The first show writes the whole frame; until then the console's picture stays.
  }

  deinit {
    // The console (or whatever comes next) must not be left with a dark panel.
    if isOutputOff { _ = pl_fb_set_power(file.rawValue, false) }
    _ = pl_munmap(mapping, length)
  }

  mutating func show(_ frame: [UInt8], damage: Rect) throws(FBDevError) -> Bool {
    let (w, h, bytes, stride) = (width, height, Pixel.bytesPerPixel, lineLength)
    let visible = UnsafeMutableRawBufferPointer(start: mapping + origin, count: length - origin)
    frame.withUnsafeBytes { source in
      DamageCopy.copy(
        from: source, sourceStride: w * bytes, to: visible, destinationStride: stride, width: w, height: h,
        bytesPerPixel: bytes, damage: damage)
    }
    return true
  }

  mutating func completeFlip() throws(FBDevError) -> UInt64? { nil }
  mutating func hotplug() throws(FBDevError) -> Bool { false }
  mutating func switchOff() throws(FBDevError) {
    guard pl_fb_set_power(file.rawValue, true) == 0 else {
      throw .noPowerControl(path: path, errno: Errno.current)
    }
    isOutputOff = true
  }

  /// Writes the whole frame first, so the panel lights up with it and not with what the
  /// memory held while it was dark.
  mutating func switchOn(showing frame: [UInt8]) throws(FBDevError) {
    _ = try show(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
    guard pl_fb_set_power(file.rawValue, false) == 0 else {
      throw .callFailed(call: "FBIOBLANK", path: path, errno: Errno.current)
    }
    isOutputOff = false
  }
}

/// What an fbdev device is, before a display is made of it: open, asked for its
/// layout, and sorted into the two formats the lock draws.
enum FBDevLayout {
  /// An open device and what it said of itself.
  struct Opened: ~Copyable {
    let path: String
    let file: FileDescriptor
    let info: pl_fb_info
    var driver: String {
      withUnsafeBytes(of: info.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
    /// RGB565 or XRGB8888, or nil for any other layout.
    var format: PixelFormat? { FBDevLayout.format(of: info) }
  }

  /// Opens `path` and reads its layout.
  ///
  /// - Throws: `FBDevError` naming the device and what to do.
  static func open(_ path: String) throws(FBDevError) -> Opened {
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
    guard pl_fb_get_info(file.rawValue, &info) == 0 else {
      let errno = Errno.current
      if errno == .notTerminal || errno == .invalid { throw .notFramebuffer(path: path) }
      throw .callFailed(call: "FBIOGET_VSCREENINFO", path: path, errno: errno)
    }
    return Opened(path: path, file: file, info: info)
  }

  /// The format whose bits the device's layout is, or nil.
  static func format(of info: pl_fb_info) -> PixelFormat? {
    guard info.type == UInt32(PL_FB_TYPE_PACKED_PIXELS), info.visual == UInt32(PL_FB_VISUAL_TRUECOLOR),
      info.grayscale == 0, info.nonstd == 0, info.msb_right == 0
    else { return nil }
    let channels = (info.red_offset, info.red_length, info.green_offset, info.green_length, info.blue_offset, info.blue_length)
    if info.bits_per_pixel == 16, channels == (11, 5, 5, 6, 0, 5) { return .rgb565 }
    if info.bits_per_pixel == 32, channels == (16, 8, 8, 8, 0, 8) { return .xrgb8888 }
    return nil
  }

  /// `16 bits, red 11/5 green 5/6 blue 0/5`: the layout, for the refusal.
  static func describe(_ info: pl_fb_info) -> String {
    var text = "\(info.bits_per_pixel) bits, red \(info.red_offset)/\(info.red_length), green \(info.green_offset)/\(info.green_length), "
    text += "blue \(info.blue_offset)/\(info.blue_length)"
    if info.visual != UInt32(PL_FB_VISUAL_TRUECOLOR) { text += ", visual \(info.visual) (not true colour)" }
    if info.type != UInt32(PL_FB_TYPE_PACKED_PIXELS) { text += ", type \(info.type) (not packed pixels)" }
    if info.grayscale != 0 { text += ", greyscale" }
    return text
  }

  /// Whether there is a device at `path` to try (one that exists but cannot be used
  /// counts: its own error is then the one to see).
  static func exists(_ path: String) -> Bool {
    do throws(FBDevError) {
      _ = try open(path)
      return true
    } catch {
      return error != .noDevice(path: path)
    }
  }

  /// Whether `path` names an fbdev node (`/dev/fb0`, `/dev/fb/0`) rather than a DRM card.
  static func isFramebufferPath(_ path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasPrefix("fb") || path.hasPrefix("/dev/fb/")
  }
}

/// Why the fbdev display cannot be driven.
enum FBDevError: DescribedError, Equatable {
  case noDevice(path: String)
  case permissionDenied(path: String)
  case notFramebuffer(path: String)
  /// The device's pixel layout is neither RGB565 nor XRGB8888.
  case unsupportedLayout(path: String, layout: String)
  /// `format =` asks for another format than the device's.
  case formatMismatch(path: String, device: String, requested: String)
  case callFailed(call: String, path: String, errno: Errno)
  /// FBIOBLANK refused to power the output down.
  case noPowerControl(path: String, errno: Errno)

  var message: String {
    switch self {
    case .noDevice(let path):
      return "no fbdev device \(path) (is its driver loaded? ls /dev/fb*; or leave device = auto to use a DRM card)"
    case .permissionDenied(let path):
      return "cannot open \(path): Permission denied (is this user in group video? try 'sudo usermod -aG video $USER' and log in again)"
    case .notFramebuffer(let path):
      return "\(path) is not an fbdev device (FBIOGET_VSCREENINFO refused); pass a /dev/fbN node or a /dev/dri/card* to --device"
    case .unsupportedLayout(let path, let layout):
      return "\(path) uses a pixel layout patternlock cannot draw (\(layout)); set it to 16-bit RGB565 or 32-bit XRGB8888 (fbset -depth 16 or 32, or the driver's overlay options), or use its DRM card"
    case .formatMismatch(let path, let device, let requested):
      return "\(path) scans out \(device), not \(requested) (an fbdev device is driven in its own format); set format = auto or \(device), or change the device's depth with fbset"
    case .callFailed(let call, let path, let errno):
      return "\(call) failed on \(path): \(errno.text)"
    case .noPowerControl(let path, let errno):
      return "\(path) cannot be powered down through fbdev (FBIOBLANK: \(errno.text)); its driver has no blanking"
    }
  }
}
