import SystemCalls
import CDRM
import CShim
import Raster

/// A dumb buffer: kernel memory the display scans out, mapped into this process and
/// registered as a framebuffer. Everything is released in `deinit`, in reverse order.
///
/// Dumb buffers are the one buffer type every KMS driver supports (vc4, virtio-gpu,
/// simpledrm, i915); they need no GPU API. They are often mapped uncached, so this
/// module only writes them (`DamageCopy`).
public struct DumbBuffer: ~Copyable {
  let descriptor: Int32
  /// The GEM handle.
  let handle: UInt32
  /// The framebuffer ID for SetCrtc, PageFlip and the plane's `FB_ID`.
  let framebuffer: FramebufferID
  /// Bytes per row, as the driver chose (it may pad rows).
  public let pitch: Int
  /// The mapping's length in bytes.
  let size: Int
  private let mapping: UnsafeMutableRawPointer

  /// Creates, maps and registers a buffer, cleaning up whatever step fails.
  ///
  /// Calls `drmModeCreateDumbBuffer`, `drmModeMapDumbBuffer`, `mmap` and
  /// `drmModeAddFB2`.
  ///
  /// - Parameters:
  ///   - device: the card.
  ///   - width: pixels per row.
  ///   - height: rows.
  ///   - format: the pixel format (XRGB8888 or RGB565).
  /// - Throws: `KMSError.callFailed` naming the step.
  init(device: borrowing DrmDevice, width: Int, height: Int, format: FourCC) throws(KMSError) {
    guard let bpp = format.bitsPerPixel else {
      throw .callFailed(call: "drmModeCreateDumbBuffer (unsupported format)", path: device.path, errno: .invalid)
    }
    let fd = device.descriptor
    var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
    try systemCall("drmModeCreateDumbBuffer", on: device.path) {
      drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), bpp, 0, &handle, &pitch, &size)
    }
    var offset: UInt64 = 0
    do throws(KMSError) {
      try systemCall("drmModeMapDumbBuffer", on: device.path) { drmModeMapDumbBuffer(fd, handle, &offset) }
    } catch {
      _ = drmModeDestroyDumbBuffer(fd, handle)
      throw error
    }
    guard let mapping = pl_mmap_shared(fd, Int(size), offset) else {
      let errno = Errno.current
      _ = drmModeDestroyDumbBuffer(fd, handle)
      throw .callFailed(call: "mmap of a dumb buffer", path: device.path, errno: errno)
    }
    var framebuffer: UInt32 = 0
    var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
    var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
    var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    do throws(KMSError) {
      try systemCall("drmModeAddFB2", on: device.path) {
        withUnsafePointer(to: &handles.0) { h in
          withUnsafePointer(to: &pitches.0) { p in
            withUnsafePointer(to: &offsets.0) { o in
              drmModeAddFB2(fd, UInt32(width), UInt32(height), format.rawValue, h, p, o, &framebuffer, 0)
            }
          }
        }
      }
    } catch {
      _ = pl_munmap(mapping, Int(size))
      _ = drmModeDestroyDumbBuffer(fd, handle)
      throw error
    }
    self.descriptor = fd
    self.handle = handle
    self.framebuffer = FramebufferID(framebuffer)
    self.pitch = Int(pitch)
    self.size = Int(size)
    self.mapping = mapping
  }

  deinit {
    _ = drmModeRmFB(descriptor, framebuffer.rawValue)
    _ = pl_munmap(mapping, size)
    _ = drmModeDestroyDumbBuffer(descriptor, handle)
  }

  /// Lends the mapped pixels, for writing only.
  ///
  /// - Parameter body: receives the mapping; it must not keep the pointer and should
  ///   not read through it (the memory may be uncached).
  public func withPixels<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
    body(UnsafeMutableRawBufferPointer(start: mapping, count: size))
  }

  /// Fills the whole buffer with zero bytes (black in XRGB8888 and RGB565).
  func clear() {
    mapping.initializeMemory(as: UInt8.self, repeating: 0, count: size)
  }
}
