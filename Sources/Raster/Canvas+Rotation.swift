import PatternCore

extension Canvas {
  /// Copies a rectangle of a view-oriented frame onto this panel-oriented canvas,
  /// turned as the panel is mounted.
  ///
  /// The scene is drawn upright (in view coordinates) into a cached shadow frame;
  /// scan-out wants panel coordinates. This is the one place the two meet, so the
  /// shapes never deal with rotation. Only the view rectangle `rect` is copied (the
  /// damage), and this canvas is only written, never read: it may be an uncached
  /// mapped dumb buffer.
  ///
  /// - Parameters:
  ///   - view: the upright frame; its size is this canvas's, swapped for 90 and 270.
  ///   - rect: the view pixels to copy (clipped to the view).
  ///   - transform: the view-to-panel mapping (its panel size is this canvas's).
  /// - Precondition: the sizes agree (a caller bug otherwise).
  @inlinable public func copyRotated(from view: Canvas<Storage>, rect: Rect, transform: ViewTransform) {
    precondition(transform.panelWidth == width && transform.panelHeight == height, "panel canvas size differs from the transform")
    precondition(view.width == transform.viewWidth && view.height == transform.viewHeight, "view canvas size differs from the transform")
    let area = rect.intersection(view.bounds)
    if area.isEmpty { return }
    let size = MemoryLayout<Storage.Word>.size
    switch transform.rotation {
    case .none:
      for y in area.y..<area.maxY {
        (base + offset(area.x, y)).copyMemory(from: view.base + view.offset(area.x, y), byteCount: area.width * size)
      }
    case .upsideDown:
      for y in area.y..<area.maxY {
        for x in area.x..<area.maxX { store(view.load(x, y), width - 1 - x, height - 1 - y) }
      }
    case .clockwise90:
      // View (x, y) lands on panel (W-1-y, x). Walk panel rows so writes are sequential.
      for x in area.x..<area.maxX {
        for y in area.y..<area.maxY { store(view.load(x, y), width - 1 - y, x) }
      }
    case .clockwise270:
      // View (x, y) lands on panel (y, H-1-x).
      for x in area.x..<area.maxX {
        for y in area.y..<area.maxY { store(view.load(x, y), y, height - 1 - x) }
      }
    }
  }
}
