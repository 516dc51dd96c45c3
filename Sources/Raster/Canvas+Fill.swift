import PatternCore

extension Canvas {
  /// Fills a rectangle with one colour (blended when the colour is translucent).
  ///
  /// Opaque fills store the first row and copy it to the others, so a full-screen
  /// clear runs at memory speed.
  ///
  /// - Parameters:
  ///   - rect: the rectangle, in whole pixels.
  ///   - color: the colour.
  ///   - clip: nothing outside it is touched.
  @inlinable public func fill(_ rect: Rect, color: Color, clip: Rect) {
    let area = rect.intersection(clip).intersection(bounds)
    if area.isEmpty || color.a == 0 { return }
    if color.a < 255 {
      for y in area.y..<area.maxY {
        blendSpan(y: y, from: area.x, to: area.maxX, color: color, alpha: UInt32(color.a))
      }
      return
    }
    fillSpan(y: area.y, from: area.x, to: area.maxX, word: Storage.word(for: color))
    for y in (area.y + 1)..<max(area.y + 1, area.maxY) {
      copySpan(fromRow: area.y, toRow: y, from: area.x, to: area.maxX)
    }
  }

  /// Fills a rectangle with a vertical gradient: `top` on its first row, `bottom`
  /// on its last, each channel (alpha too) interpolated linearly and rounded.
  ///
  /// Rows depend only on their position in `rect`, not on the clip, so a clipped
  /// redraw matches a full one.
  ///
  /// - Parameters:
  ///   - rect: the rectangle, in whole pixels.
  ///   - top: the first row's colour.
  ///   - bottom: the last row's colour.
  ///   - clip: nothing outside it is touched.
  @inlinable public func fillVerticalGradient(_ rect: Rect, top: Color, bottom: Color, clip: Rect) {
    let area = rect.intersection(clip).intersection(bounds)
    if area.isEmpty { return }
    // Each row's colour is `gradientColor`'s, stepped from the area's first row.
    var rows = GradientSteps(top: top, bottom: bottom, steps: rect.height - 1, step: area.y - rect.y)
    for y in area.y..<area.maxY {
      let color = rows.color
      blendSpan(y: y, from: area.x, to: area.maxX, color: color, alpha: UInt32(color.a))
      rows.advance()
    }
  }

  /// The colour `step` rows into a gradient of `steps + 1` rows.
  @inlinable static func gradientColor(top: Color, bottom: Color, step: Int, of steps: Int) -> Color {
    if steps <= 0 { return top }
    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(truncatingIfNeeded: (Int(a) * (steps - step) + Int(b) * step + steps / 2) / steps)
    }
    return Color(r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: mix(top.a, bottom.a))
  }
}
