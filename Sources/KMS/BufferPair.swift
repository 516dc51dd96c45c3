import PatternCore
import Raster

/// The two dumb buffers a display flips between, and which of them is on screen.
///
/// Buffers are named by index, 0 and 1, as `DamageTracker` names them. `back` is drawn
/// into and flipped to next, and `swap` makes it the front once that flip completed; a
/// display that updates in place (`KMSDisplay.updatesInPlace`) writes `front` instead.
struct BufferPair: ~Copyable {
  // Destroyed in this order, as the display's buffers always were.
  private let buffer0: DumbBuffer
  private let buffer1: DumbBuffer
  /// The buffer on screen (0 or 1).
  private(set) var front = 0

  init(_ buffer0: consuming DumbBuffer, _ buffer1: consuming DumbBuffer) {
    self.buffer0 = buffer0
    self.buffer1 = buffer1
  }

  /// The buffer not on screen (0 or 1).
  var back: Int { 1 - front }

  /// After a flip to `back` completed: it is the one on screen now.
  mutating func swap() { front = back }

  /// The framebuffer of the buffer on screen.
  var frontFramebuffer: FramebufferID { framebuffer(front) }

  /// The framebuffer of buffer `index`.
  func framebuffer(_ index: Int) -> FramebufferID {
    index == 0 ? buffer0.framebuffer : buffer1.framebuffer
  }

  /// Fills both buffers with black, before either is first shown.
  func clear() {
    buffer0.clear()
    buffer1.clear()
  }

  /// Copies `area` of a composed frame (`width * bytesPerPixel` bytes per row) into
  /// buffer `index`, write-only (`DamageCopy`). Allocates nothing.
  func copy(_ source: UnsafeRawBufferPointer, into index: Int, width: Int, height: Int, bytesPerPixel: Int, area: Rect) {
    if index == 0 {
      BufferPair.copy(source, into: buffer0, width: width, height: height, bytesPerPixel: bytesPerPixel, area: area)
    } else {
      BufferPair.copy(source, into: buffer1, width: width, height: height, bytesPerPixel: bytesPerPixel, area: area)
    }
  }

  private static func copy(
    _ source: UnsafeRawBufferPointer, into buffer: borrowing DumbBuffer, width: Int, height: Int, bytesPerPixel: Int, area: Rect
  ) {
    let pitch = buffer.pitch
    _ = buffer.withPixels { destination in
      DamageCopy.copy(
        from: source, sourceStride: width * bytesPerPixel, to: destination, destinationStride: pitch,
        width: width, height: height, bytesPerPixel: bytesPerPixel, damage: area)
    }
  }
}
