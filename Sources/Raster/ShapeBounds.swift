import PatternCore

/// The pixels each shape may touch, for damage tracking.
///
/// Drawing never writes outside these boxes (each draw call clips to its shape's
/// box), so damaging the old and the new box of everything that changed, and
/// redrawing the scene clipped to the damage, repairs a frame exactly.
public enum ShapeBounds {
  /// The pixels a filled circle may touch.
  ///
  /// - Parameters:
  ///   - center: the centre, in pixels.
  ///   - radius: the radius; zero or less draws nothing.
  public static func circle(center: Point, radius: Fixed16) -> Rect {
    guard radius.raw > 0 else { return .empty }
    let c = (SubPixel.from(center.x), SubPixel.from(center.y))
    return box(minX: c.0, minY: c.1, maxX: c.0, maxY: c.1, reach: SubPixel.from(radius) &+ margin)
  }

  /// The pixels a ring (a circle stroked `strokeWidth` wide, centred on `radius`)
  /// may touch.
  public static func ring(center: Point, radius: Fixed16, strokeWidth: Fixed16) -> Rect {
    guard strokeWidth.raw > 0, radius.raw > 0 else { return .empty }
    return circle(center: center, radius: radius + Fixed16(raw: strokeWidth.raw / 2))
  }

  /// The pixels a polyline `width` wide with round caps may touch.
  ///
  /// Takes a `Span` (an array's `.span`, an `InlineArray`'s `.span`): unlike a
  /// generic collection it costs no allocation even in unoptimised builds.
  public static func polyline(_ points: Span<Point>, width: Fixed16) -> Rect {
    guard width.raw > 0, !points.isEmpty else { return .empty }
    let first = points[0]
    var minX = SubPixel.from(first.x), maxX = minX
    var minY = SubPixel.from(first.y), maxY = minY
    for i in points.indices {
      let p = points[i]
      let x = SubPixel.from(p.x), y = SubPixel.from(p.y)
      minX = min(minX, x)
      maxX = max(maxX, x)
      minY = min(minY, y)
      maxY = max(maxY, y)
    }
    return box(minX: minX, minY: minY, maxX: maxX, maxY: maxY, reach: polylineReach(width: width))
  }

  /// The pixels a polyline in an array may touch.
  public static func polyline(_ points: [Point], width: Fixed16) -> Rect {
    polyline(points.span, width: width)
  }

  /// Q12 slack beyond a shape's anti-aliasing reach: the span maths rounds outward
  /// by a few units.
  @inlinable static var margin: Int64 { Rasterizer.edgeReach &+ 8 }

  /// How far (Q12) beyond its points a polyline may touch pixel centres.
  @inlinable static func polylineReach(width: Fixed16) -> Int64 {
    SubPixel.from(width) / 2 &+ margin
  }

  /// The pixels whose centres lie within `reach` of a Q12 box.
  @inlinable static func box(minX: Int64, minY: Int64, maxX: Int64, maxY: Int64, reach: Int64) -> Rect {
    let x0 = SubPixel.firstCentre(atOrAfter: minX &- reach), x1 = SubPixel.endCentre(atOrBefore: maxX &+ reach)
    let y0 = SubPixel.firstCentre(atOrAfter: minY &- reach), y1 = SubPixel.endCentre(atOrBefore: maxY &+ reach)
    return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
  }
}
