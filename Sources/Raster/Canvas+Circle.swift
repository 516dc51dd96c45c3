import PatternCore

extension Canvas {
  /// Fills an anti-aliased circle.
  ///
  /// - Parameters:
  ///   - center: the centre, in pixels (pixel `x` spans `x..<x+1`).
  ///   - radius: the radius; zero or less draws nothing.
  ///   - color: the colour; its alpha scales the coverage.
  ///   - clip: nothing outside it is touched.
  @inlinable public func fillCircle(center: Point, radius: Fixed16, color: Color, clip: Rect) {
    let area = ShapeBounds.circle(center: center, radius: radius).intersection(clip).intersection(bounds)
    if area.isEmpty || color.a == 0 { return }
    drawAnnulus(
      cx: SubPixel.from(center.x), cy: SubPixel.from(center.y),
      outer: SubPixel.from(radius), inner: 0, color: color, area: area)
  }

  /// Strokes an anti-aliased circle: the ring between `radius - strokeWidth/2` and
  /// `radius + strokeWidth/2`.
  ///
  /// - Parameters:
  ///   - center: the centre, in pixels.
  ///   - radius: the radius of the stroke's centre line; zero or less draws nothing.
  ///   - strokeWidth: the ring's thickness; zero or less draws nothing. A stroke
  ///     wider than the diameter fills the circle of radius `radius + strokeWidth/2`.
  ///   - color: the colour; its alpha scales the coverage.
  ///   - clip: nothing outside it is touched.
  @inlinable public func strokeCircle(center: Point, radius: Fixed16, strokeWidth: Fixed16, color: Color, clip: Rect) {
    let area = ShapeBounds.ring(center: center, radius: radius, strokeWidth: strokeWidth)
      .intersection(clip).intersection(bounds)
    if area.isEmpty || color.a == 0 { return }
    let r = SubPixel.from(radius), halfStroke = SubPixel.from(strokeWidth) / 2
    drawAnnulus(
      cx: SubPixel.from(center.x), cy: SubPixel.from(center.y),
      outer: r &+ halfStroke, inner: max(0, r &- halfStroke), color: color, area: area)
  }

  /// Draws the pixels of `area` between the circles of radius `inner` and `outer`
  /// (Q12; `inner` 0 for a disc) around `(cx, cy)`.
  ///
  /// Per row, integer square roots split the row into runs: surely full (inside
  /// the outer circle by more than a pixel's half-diagonal and outside the inner
  /// one by as much), surely empty (deep in the hole), and edge pixels, the only
  /// ones that take a coverage lookup. The runs are conservative, so every pixel
  /// gets the value its own coverage gives, whatever the clip.
  @inlinable
  func drawAnnulus(cx: Int64, cy: Int64, outer: Int64, inner: Int64, color: Color, area: Rect) {
    let reach = Rasterizer.edgeReach
    let hasHole = inner > 0
    let colorAlpha = UInt32(color.a)
    let ramp = rasterizer
    for y in area.y..<area.maxY {
      let dy = SubPixel.centre(y) &- cy
      let dySquared = dy &* dy
      let dyMagnitude = Int64(dy.magnitude)
      // Pixels that may be touched; the rest of the row stays as it is.
      guard let touched = Canvas.columns(cx, radius: outer &+ reach, dySquared: dySquared, widen: true) else {
        continue
      }
      let start = max(touched.start, area.x), end = min(touched.end, area.maxX)
      if start >= end { continue }
      let full = Canvas.columns(cx, radius: outer &- reach, dySquared: dySquared, widen: false) ?? (end, end)
      var holeTouched = (start: full.end, end: full.end)
      var holeEmpty = holeTouched
      if hasHole {
        if let touchedHole = Canvas.columns(cx, radius: inner &+ reach, dySquared: dySquared, widen: true) {
          holeTouched = touchedHole
          holeEmpty = Canvas.columns(cx, radius: inner &- reach, dySquared: dySquared, widen: false)
            ?? (touchedHole.start, touchedHole.start)
        }
      }

      func edges(_ x0: Int, _ x1: Int) {
        var x = x0
        while x < x1 {
          let dx = SubPixel.centre(x) &- cx
          let distance = SubPixel.squareRoot(dx &* dx &+ dySquared)
          let angle = Rasterizer.angleIndex(Int64(dx.magnitude), dyMagnitude)
          var coverage = ramp.curvedEdgeCoverage(outer &- distance, angle: angle, radius: outer)
          if hasHole { coverage &-= ramp.curvedEdgeCoverage(inner &- distance, angle: angle, radius: inner) }
          if coverage > 0 { blendPixel(x: x, y: y, color: color, coverage: Rasterizer.coverageByte(coverage)) }
          x &+= 1
        }
      }
      /// Edge pixels up to the run `runStart..<runEnd`, then the run; returns where it ended.
      func edgesThenRun(from x: Int, _ runStart: Int, _ runEnd: Int, full: Bool) -> Int {
        let s = min(max(runStart, x), end)
        edges(x, s)
        let e = min(max(runEnd, s), end)
        if full && e > s { blendSpan(y: y, from: s, to: e, color: color, alpha: colorAlpha) }
        return e
      }

      // Left to right: edge, full, edge, empty (hole), edge, full, edge.
      var x = start
      x = edgesThenRun(from: x, full.start, min(full.end, holeTouched.start), full: true)
      x = edgesThenRun(from: x, holeEmpty.start, holeEmpty.end, full: false)
      x = edgesThenRun(from: x, max(full.start, holeTouched.end), full.end, full: true)
      edges(x, end)
    }
  }

  /// The pixel columns `start..<end` whose centres lie within `radius` (Q12) of the
  /// point `c` on a row `sqrt(dySquared)` away, or nil when there are none.
  ///
  /// `widen` makes the range never too short (it may hold one pixel too many);
  /// without it the range is never too long.
  @inlinable
  static func columns(_ c: Int64, radius: Int64, dySquared: Int64, widen: Bool) -> (start: Int, end: Int)? {
    if radius <= 0 { return nil }
    let radiusSquared = radius &* radius
    if dySquared >= radiusSquared { return nil }
    let half = SubPixel.squareRoot(radiusSquared &- dySquared) &+ (widen ? 1 : 0)
    let start = SubPixel.firstCentre(atOrAfter: c &- half), end = SubPixel.endCentre(atOrBefore: c &+ half)
    return start < end ? (start, end) : nil
  }
}
