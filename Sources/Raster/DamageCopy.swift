import PatternCore

/// Copies the damaged part of a frame from the shadow buffer into a scan-out buffer.
///
/// The shadow buffer is ordinary cached memory the scene draws into; the scan-out
/// buffer is a mapped dumb buffer, write-combined or uncached on many ARM boards
/// (vc4, sun4i), where every read stalls. So this only ever *writes* the destination,
/// row by row, the damaged columns of the damaged rows, and never reads it: blending
/// happens in the shadow, and what is copied is final.
public enum DamageCopy {
  /// Copies `damage` (clipped to the frame) from `source` into `destination`.
  ///
  /// - Parameters:
  ///   - source: the shadow frame, `sourceStride` bytes per row.
  ///   - sourceStride: bytes per shadow row.
  ///   - destination: the mapped frame, `destinationStride` bytes per row (the dumb
  ///     buffer's pitch, often larger than `width * bytesPerPixel`).
  ///   - destinationStride: bytes per destination row.
  ///   - width: the frame width in pixels.
  ///   - height: the frame height in pixels.
  ///   - bytesPerPixel: 2 or 4.
  ///   - damage: what changed, in pixels.
  /// - Returns: the number of bytes written.
  @discardableResult
  public static func copy(
    from source: UnsafeRawBufferPointer, sourceStride: Int,
    to destination: UnsafeMutableRawBufferPointer, destinationStride: Int,
    width: Int, height: Int, bytesPerPixel: Int, damage: Rect
  ) -> Int {
    let area = damage.intersection(Rect(x: 0, y: 0, width: width, height: height))
    guard !area.isEmpty else { return 0 }
    let rowBytes = area.width * bytesPerPixel
    precondition(sourceStride >= width * bytesPerPixel && destinationStride >= width * bytesPerPixel, "stride shorter than a row")
    precondition(source.count >= (height - 1) * sourceStride + width * bytesPerPixel, "shadow buffer too small")
    precondition(destination.count >= (height - 1) * destinationStride + width * bytesPerPixel, "scan-out buffer too small")
    guard let from = source.baseAddress, let to = destination.baseAddress else { return 0 }
    let column = area.x * bytesPerPixel
    for row in area.y..<area.maxY {
      (to + row * destinationStride + column).copyMemory(from: from + row * sourceStride + column, byteCount: rowBytes)
    }
    return rowBytes * area.height
  }
}
