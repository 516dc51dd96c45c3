import PatternCore

extension Canvas {
  /// Blends a mask in a colour: the same bytes as drawing the shape it was made
  /// from with `color` and `clip`.
  @inlinable public func blit(_ mask: CoverageMask, color: Color, clip: Rect) {
    blitMask(mask.bytes, width: mask.rect.width, height: mask.rect.height, stride: mask.rect.width,
             x: mask.rect.x, y: mask.rect.y, color: color, clip: clip)
  }
}
