import PatternCore

extension Canvas {
  /// Blends a mask in a colour: the same bytes as drawing the shape it was made
  /// from with `color` and `clip`.
  ///
  /// Walks the mask's runs, not its bytes: zero stretches are never read, all-255
  /// runs are stored (opaque colour) or blended at the colour's alpha in one span,
  /// and only the mixed runs at the edges blend byte by byte.
  @inlinable public func blit(_ mask: CoverageMask, color: Color, clip: Rect) {
    let area = mask.rect.intersection(clip).intersection(bounds)
    if area.isEmpty || color.a == 0 { return }
    blendRuns(of: mask, in: area, color: color)
  }
}
