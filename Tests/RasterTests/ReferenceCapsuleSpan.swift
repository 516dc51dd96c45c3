@testable import Raster

/// One capsule cut at a time, straight from the definition: what
/// `CapsuleSegment.spans(atY:)` computed before it shared the terms of its two cuts,
/// kept here as the reference it is held to.
extension CapsuleSegment {
  /// The Q12 x range on the horizontal line `y` within `radius` of the segment, or
  /// nil when the line misses the capsule.
  ///
  /// With `widen` the range may be slightly too long (never too short); without,
  /// slightly too short (never too long): callers use the first for "may touch" and
  /// the second for "surely inside". The capsule's cut is the hull of the two end
  /// discs' cuts and the points where the line crosses the two long sides between
  /// the ends; a crossing beyond an end lies outside the capsule, and the end disc
  /// holds the true end of the cut there.
  func span(atY y: Int64, radius: Int64, widen: Bool) -> (low: Int64, high: Int64)? {
    span(atY: y, radius: radius, widen: widen, axisCrossing: axisCrossing(atY: y), side: sideDistance(radius: radius))
  }

  /// `span(atY:radius:widen:)` given `axisCrossing(atY: y)` and `sideDistance(radius:)`.
  func span(
    atY y: Int64, radius: Int64, widen: Bool, axisCrossing xc: Int64, side: Int64
  ) -> (low: Int64, high: Int64)? {
    if radius <= 0 { return nil }
    var low = Int64.max, high = Int64.min
    let radiusSquared = radius &* radius
    let pad: Int64 = widen ? 1 : 0
    let dyA = y &- ay, dyB = y &- by
    if dyA &* dyA < radiusSquared {
      let h = SubPixel.squareRoot(radiusSquared &- dyA &* dyA) &+ pad
      low = ax &- h
      high = ax &+ h
    }
    if dyB &* dyB < radiusSquared {
      let h = SubPixel.squareRoot(radiusSquared &- dyB &* dyB) &+ pad
      low = min(low, bx &- h)
      high = max(high, bx &+ h)
    }
    if uy == 0 {
      if dyA &* dyA < radiusSquared {
        low = min(low, min(ax, bx))
        high = max(high, max(ax, bx))
      }
    } else {
      // The line meets the axis at xc; the sides are radius * length / |uy| away
      // along it. Each division is off by under one unit: move 2 out or 2 in.
      let half = side &+ (widen ? 2 : -2)
      if half > 0 {
        let slack = widen ? 4 &* length : 0
        let minX = min(ax, bx) &- radius &- 4096, maxX = max(ax, bx) &+ radius &+ 4096
        var x = xc &- half
        for _ in 0..<2 {
          if x >= minX && x <= maxX {
            let along = (x &- ax) &* ux &+ dyA &* uy
            if along >= -slack && along <= lengthSquared &+ slack {
              low = min(low, x)
              high = max(high, x)
            }
          }
          x = xc &+ half
        }
      }
    }
    return low <= high ? (low, high) : nil
  }
}
