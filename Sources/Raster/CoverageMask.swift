import PatternCore

/// A shape's anti-aliased coverage, worked out once and blended many times: the
/// lock screen's nine rings and dots never move, so each frame blends their masks
/// instead of taking an integer square root and two ramp lookups per edge pixel.
///
/// The mask is made by drawing the shape with the ordinary `Canvas` code, in opaque
/// white over black in a scratch XRGB8888 canvas the size of the shape's box, and
/// keeping the blue channel: white over black at opacity `a` blends to exactly `a`,
/// and opaque runs store 255, so each byte is the opacity that drawing would have
/// given the pixel. `Canvas.blit(_:color:clip:)` turns byte `m` into opacity
/// `m * alpha / 255`, the same sum the shape's own code does, so blending a mask
/// gives the same bytes as drawing the shape, in either pixel format and under any
/// clip (the golden and damage tests hold it to that). Coverage depends only on a
/// pixel's position relative to the shape, and the box moves by whole pixels, so
/// the scratch canvas sees the same fractions as the frame.
///
/// Rejected: caching finished pixels (they depend on what lies underneath) and
/// sharing one mask between dots (their centres have different fractions at most
/// sizes, so their masks differ).
public struct CoverageMask: Sendable {
  /// Where the mask goes on the canvas; one byte per pixel of it, row by row.
  public let rect: Rect
  /// Opacity per pixel, 0-255, `rect.width` bytes per row.
  public let bytes: [UInt8]

  /// The mask of a filled circle (`Canvas.fillCircle`).
  public init(circleAt center: Point, radius: Fixed16, rasterizer: Rasterizer) {
    self.init(box: ShapeBounds.circle(center: center, radius: radius), center: center, rasterizer: rasterizer) {
      canvas, origin in
      canvas.fillCircle(center: origin, radius: radius, color: .white, clip: canvas.bounds)
    }
  }

  /// The mask of a ring (`Canvas.strokeCircle`).
  public init(ringAt center: Point, radius: Fixed16, strokeWidth: Fixed16, rasterizer: Rasterizer) {
    self.init(
      box: ShapeBounds.ring(center: center, radius: radius, strokeWidth: strokeWidth), center: center,
      rasterizer: rasterizer
    ) { canvas, origin in
      canvas.strokeCircle(center: origin, radius: radius, strokeWidth: strokeWidth, color: .white, clip: canvas.bounds)
    }
  }

  /// Draws a shape whose box is `box` into a scratch canvas `box`'s size, with the
  /// shape's centre moved by `-box.origin`.
  private init(box: Rect, center c: Point, rasterizer: Rasterizer, draw: (Canvas<XRGB8888>, Point) -> Void) {
    rect = box
    guard !box.isEmpty else {
      bytes = []
      return
    }
    precondition(box.width <= rasterizer.maximumWidth, "shape wider than the rasterizer's maximumWidth")
    let origin = Point(x: c.x - Fixed16(box.x), y: c.y - Fixed16(box.y))
    var scratch = [UInt32](repeating: XRGB8888.word(for: .black), count: box.width * box.height)
    scratch.withUnsafeMutableBytes { pixels in
      draw(Canvas<XRGB8888>(pixels: pixels, width: box.width, height: box.height,
                            bytesPerRow: box.width * 4, rasterizer: rasterizer), origin)
    }
    bytes = scratch.map { UInt8(truncatingIfNeeded: $0) }
  }
}
