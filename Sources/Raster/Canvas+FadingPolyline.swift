import PatternCore

extension Canvas {
  /// Strokes a polyline like `strokePolyline`, each segment at its own opacity,
  /// still blending each pixel once: where segments overlap (at a join) the pixel
  /// takes the most opaque of them, so a join is never darker than its segments.
  ///
  /// Each segment's coverage is scaled by its opacity before it raises the row's
  /// coverage (`max`), and the row is blended with the colour made opaque. With one
  /// opacity for every segment this gives `strokePolyline`'s bytes.
  ///
  /// - Parameters:
  ///   - points: the vertices in order; one point draws a round dot at
  ///     `segmentAlphas[0]` (or the colour's opacity when there is none).
  ///   - segmentAlphas: the opacity of the segment from `points[i]` to
  ///     `points[i + 1]` at `i`; at least `points.count - 1` of them.
  ///   - color: the colour; its own alpha is not used.
  /// - Precondition: no more than `maximumPolylinePoints` points (a caller bug).
  @inlinable public func strokePolyline(
    _ points: Span<Point>, width: Fixed16, color: Color, segmentAlphas: Span<UInt8>, clip: Rect
  ) {
    let area = ShapeBounds.polyline(points, width: width).intersection(clip).intersection(bounds)
    if area.isEmpty { return }
    precondition(segmentAlphas.count >= points.count - 1, "one opacity per segment")
    var count = 0
    var previous: Point? = nil
    // The opacities of the kept segments, by their index in the rasterizer's table.
    var firstKept = -1
    for i in points.indices {
      let p = points[i]
      if let a = previous {
        var segment = Canvas.segment(from: a, to: p, width: width)
        if segment.mayTouch(area) && segmentAlphas[i - 1] > 0 {
          segment.narrowRows(toColumnsOf: area)
          rasterizer.setSegment(segment, at: count)
          rasterizer.setSegmentAlpha(segmentAlphas[i - 1], at: count)
          if firstKept < 0 { firstKept = i - 1 }
          count += 1
        }
      }
      previous = p
    }
    if points.count == 1, let p = previous {
      let alpha = segmentAlphas.isEmpty ? color.a : segmentAlphas[0]
      if alpha == 0 { return }
      rasterizer.setSegment(Canvas.segment(from: p, to: p, width: width), at: 0)
      rasterizer.setSegmentAlpha(alpha, at: 0)
      count = 1
    }
    if count == 0 { return }

    let radius = SubPixel.from(width) / 2
    let opaque = color.withAlpha(255)
    for y in area.y..<area.maxY {
      let cy = SubPixel.centre(y)
      var low = Int.max, high = Int.min
      for index in 0..<count {
        if !rasterizer.segment(at: index, touchesRow: y) { continue }
        let segment = rasterizer.segment(at: index)
        let alpha = rasterizer.segmentAlpha(at: index)
        guard let (start, end, innerStart, innerEnd) = segment.pixelColumns(atY: cy, within: area) else { continue }
        // A full run at this segment's opacity goes through the row too: another
        // segment may be more opaque there.
        for x in innerStart..<innerEnd { rasterizer.raiseCoverage(at: x, to: alpha) }
        rasterizer.raiseEdgeCoverage(of: segment, from: start, to: innerStart, py: cy, radius: radius, alpha: alpha)
        rasterizer.raiseEdgeCoverage(of: segment, from: innerEnd, to: end, py: cy, radius: radius, alpha: alpha)
        low = min(low, start)
        high = max(high, end)
      }
      if low < high {
        blendCoverageRow(y: y, from: low, to: high, color: opaque)
        rasterizer.clearCoverage(from: low, to: high)
      }
    }
  }
}
