import PatternCore

extension Canvas {
  /// Strokes an anti-aliased polyline with round caps and round joins, blending
  /// each pixel once however many segments cover it.
  ///
  /// Per row, each segment's capsule raises the rasterizer's coverage row to its
  /// coverage (`max`) at its edge pixels and records its fully covered run; then
  /// the full runs are blended at the colour's opacity, the rest of the row at its
  /// coverage, once, and the row is cleared. So a translucent polyline is as dark
  /// at a join or a crossing as anywhere else.
  ///
  /// - Parameters:
  ///   - points: the vertices in order (an array's or `InlineArray`'s `.span`); one
  ///     point draws a round dot `width` across.
  ///     At most `rasterizer.maximumPolylinePoints`.
  ///   - width: the stroke's full width; zero or less draws nothing.
  ///   - color: the colour; its alpha scales the coverage.
  ///   - clip: nothing outside it is touched.
  /// - Precondition: no more than `maximumPolylinePoints` points (a caller bug).
  @inlinable public func strokePolyline(_ points: Span<Point>, width: Fixed16, color: Color, clip: Rect) {
    let area = ShapeBounds.polyline(points, width: width).intersection(clip).intersection(bounds)
    if area.isEmpty || color.a == 0 { return }
    // Only the segments that can touch the area are kept: a redraw of a small
    // damage rectangle then cuts no rows of the far ones.
    var count = 0
    var previous: Point? = nil
    for i in points.indices {
      let p = points[i]
      if let a = previous, Canvas.segmentMayTouch(area, from: a, to: p, width: width) {
        var segment = Canvas.segment(from: a, to: p, width: width)
        if segment.mayTouch(area) {
          segment.narrowRows(toColumnsOf: area)
          rasterizer.setSegment(segment, at: count)
          count += 1
        }
      }
      previous = p
    }
    if points.count == 1, let p = previous {
      rasterizer.setSegment(Canvas.segment(from: p, to: p, width: width), at: 0)
      count = 1
    }

    let radius = SubPixel.from(width) / 2
    let colorAlpha = UInt32(color.a)
    for y in area.y..<area.maxY {
      let cy = SubPixel.centre(y)
      var low = Int.max, high = Int.min
      var fullCount = 0
      for index in 0..<count {
        if !rasterizer.segment(at: index, touchesRow: y) { continue }
        let segment = rasterizer.segment(at: index)
        guard let (start, end, innerStart, innerEnd) = segment.pixelColumns(atY: cy, within: area) else { continue }
        if innerStart < innerEnd {
          rasterizer.setFullRun(start: innerStart, end: innerEnd, at: fullCount)
          fullCount += 1
        }
        // The edge pixels either side of the full run (all of start..<end when there
        // is none), each walked with the distance stepped, not divided.
        rasterizer.raiseEdgeCoverage(
          of: segment, from: start, to: innerStart, thenFrom: innerEnd, to: end, py: cy, radius: radius)
        low = min(low, start)
        high = max(high, end)
      }
      if low < high {
        // Full runs are blended at the colour's own opacity, straight onto the
        // canvas: their coverage is 255 whatever other segments add (`max`), so the
        // coverage row is left empty there and blended only around them.
        let runs = rasterizer.mergeFullRuns(count: fullCount)
        var x = low
        for i in 0..<runs {
          let run = rasterizer.fullRun(at: i)
          if x < run.start { blendCoverageRow(y: y, from: x, to: run.start, color: color) }
          blendSpan(y: y, from: run.start, to: run.end, color: color, alpha: colorAlpha)
          x = run.end
        }
        if x < high { blendCoverageRow(y: y, from: x, to: high, color: color) }
        rasterizer.clearCoverage(from: low, to: high)
      }
    }
  }

  /// Strokes a polyline whose points are in an array; see the `Span` form.
  @inlinable public func strokePolyline(_ points: [Point], width: Fixed16, color: Color, clip: Rect) {
    strokePolyline(points.span, width: width, color: color, clip: clip)
  }

  /// Whether `segment(from: a, to: b, width: width).mayTouch(area)`, without making
  /// the segment.
  @inlinable
  static func segmentMayTouch(_ area: Rect, from a: Point, to b: Point, width: Fixed16) -> Bool {
    CapsuleSegment.mayTouch(
      area, ax: SubPixel.from(a.x), ay: SubPixel.from(a.y), bx: SubPixel.from(b.x), by: SubPixel.from(b.y),
      reach: ShapeBounds.polylineReach(width: width), outerRadius: SubPixel.from(width) / 2 &+ Rasterizer.edgeReach)
  }

  /// The capsule segment between two points of a polyline `width` wide, in Q12.
  @inlinable
  static func segment(from a: Point, to b: Point, width: Fixed16) -> CapsuleSegment {
    let radius = SubPixel.from(width) / 2
    return CapsuleSegment(
      ax: SubPixel.from(a.x), ay: SubPixel.from(a.y), bx: SubPixel.from(b.x), by: SubPixel.from(b.y),
      reach: ShapeBounds.polylineReach(width: width),
      outerRadius: radius &+ Rasterizer.edgeReach, innerRadius: radius &- Rasterizer.edgeReach)
  }
}
