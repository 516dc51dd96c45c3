import CShim
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
public struct FBDevDisplay<Pixel: PixelStorage>: PanelDisplay, ~Copyable {
  public typealias Failure = FBDevError
  public let path: String
  public let width: Int
  public let height: Int
  public let widthMillimetres: Int
  /// The driver's name (fix.id), for the start-up line.
  public let driver: String
  private let file: FileDescriptor
  private let mapping: UnsafeMutableRawPointer
  private let length: Int
  /// Bytes per row of the device's memory, and where the visible frame starts in it.
  private let lineLength: Int
  private let origin: Int

  public var pollDescriptor: Int32 { -1 }
  public var isFlipPending: Bool { false }
  public private(set) var isOutputOff = false
  public var canSwitchOff: Bool { true }
  /// What was taken, for the start-up line.
  public var summary: String { "\(path) (\(driver), \(width)x\(height), \(Pixel.format.name), fbdev)" }

  /// Opens and maps the device whose layout is `Pixel`'s (`FBDevLayout.open` first
  /// reads which one that is).
  public init(_ opened: consuming FBDevLayout.Opened) throws(FBDevError) {
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
    if isOutputOff {
      let fd = file.rawValue
      _ = resultRetryingInterrupts({ pl_fb_set_power(fd, false) })
    }
    _ = pl_munmap(mapping, length)
  }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(FBDevError) -> Bool {
    let (w, h, bytes, stride) = (width, height, Pixel.bytesPerPixel, lineLength)
    let visible = UnsafeMutableRawBufferPointer(start: mapping + origin, count: length - origin)
    _ = frame.withUnsafeBytes { source in
      DamageCopy.copy(
        from: source, sourceStride: w * bytes, to: visible, destinationStride: stride, width: w, height: h,
        bytesPerPixel: bytes, damage: damage)
    }
    return true
  }

  public mutating func completeFlip() throws(FBDevError) -> UInt64? { nil }
  public mutating func switchOff() throws(FBDevError) {
    let fd = file.rawValue
    guard resultRetryingInterrupts({ pl_fb_set_power(fd, true) }) == 0 else {
      throw .noPowerControl(path: path, errno: Errno.current)
    }
    isOutputOff = true
  }

  /// Writes the whole frame first, so the panel lights up with it and not with what the
  /// memory held while it was dark.
  public mutating func switchOn(showing frame: [UInt8]) throws(FBDevError) {
    _ = try show(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
    let fd = file.rawValue
    guard resultRetryingInterrupts({ pl_fb_set_power(fd, false) }) == 0 else {
      throw .callFailed(call: "FBIOBLANK", path: path, errno: Errno.current)
    }
    isOutputOff = false
  }
}

