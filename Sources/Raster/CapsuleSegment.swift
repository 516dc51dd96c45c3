import PatternCore

/// One segment of a polyline in Q12 (`SubPixel`), with what every row and pixel of
/// its capsule (the segment widened by a radius, with round ends) needs.
///
/// Lives in `Rasterizer.segments`, filled once per polyline draw.
@usableFromInline struct CapsuleSegment {
  @usableFromInline var ax: Int64 = 0, ay: Int64 = 0
  @usableFromInline var bx: Int64 = 0, by: Int64 = 0
  /// `b - a`.
  @usableFromInline var ux: Int64 = 0, uy: Int64 = 0
  /// `|b - a|^2` (Q24) and `|b - a|` (Q12, rounded down).
  @usableFromInline var lengthSquared: Int64 = 0, length: Int64 = 0
  /// The ramp direction of the side edges' normal.
  @usableFromInline var sideAngle = 0
  /// The rows `firstRow..<endRow` the capsule can touch.
  @usableFromInline var firstRow = 0, endRow = 0
  /// The two radii a polyline asks `spans(atY:)` about: its anti-aliasing reach
  /// beyond the stroke ("may touch", widened) and short of it ("surely inside").
  @usableFromInline var outerRadius: Int64 = 0, innerRadius: Int64 = 0
  /// `radius * length / |uy|` for each (0 when `uy` is 0): how far along a row the
  /// long sides are from the axis. Worked out once here instead of on every row.
  @usableFromInline var outerSide: Int64 = 0, innerSide: Int64 = 0
  /// `4096 * uy = quotientStep * length + remainderStep` (`0 <= remainderStep <
  /// length`; both 0 for a dot): the side distance's change per pixel along a row,
  /// divided once here for every `RowWalker` of the segment.
  @usableFromInline var quotientStep: Int64 = 0, remainderStep: Int64 = 0
  @inlinable init() {}

  /// A segment from `(ax, ay)` to `(bx, by)`, touching rows within `reach` (Q12),
  /// whose rows `spans(atY:)` cuts at `outerRadius` and `innerRadius`.
  @inlinable init(ax: Int64, ay: Int64, bx: Int64, by: Int64, reach: Int64, outerRadius: Int64, innerRadius: Int64) {
    self.ax = ax
    self.ay = ay
    self.bx = bx
    self.by = by
    ux = bx &- ax
    uy = by &- ay
    lengthSquared = ux &* ux &+ uy &* uy
    length = SubPixel.squareRoot(lengthSquared)
    sideAngle = Rasterizer.angleIndex(Int64(ux.magnitude), Int64(uy.magnitude))
    firstRow = SubPixel.firstCentre(atOrAfter: min(ay, by) &- reach)
    endRow = SubPixel.endCentre(atOrBefore: max(ay, by) &+ reach)
    self.outerRadius = outerRadius
    self.innerRadius = innerRadius
    outerSide = sideDistance(radius: outerRadius)
    innerSide = sideDistance(radius: innerRadius)
    if length > 0 { (quotientStep, remainderStep) = CapsuleSegment.floorDivision(4096 &* uy, by: length) }
  }

  /// The columns `first..<end` the capsule can touch: the end points' range widened
  /// by the outer radius and two pixels, more than `spans(atY:)` ever reaches.
  ///
  /// Not stored: the polyline copies its segment out on every row, at 120 bytes
  /// with a few vector moves, at 136 (with the walker's step) by a `memcpy` call
  /// of about the same cost, and larger copies cost more.
  @inlinable var columns: (first: Int, end: Int) {
    let reach = max(outerRadius, 0) &+ 8192
    return (SubPixel.firstCentre(atOrAfter: min(ax, bx) &- reach), SubPixel.endCentre(atOrBefore: max(ax, bx) &+ reach))
  }

  /// Whether the capsule can touch any pixel of `area`; when not, no row of the
  /// area has a cut of it (`spans(atY:)`), so a polyline draw can leave it out.
  @inlinable func mayTouch(_ area: Rect) -> Bool {
    let (first, end) = columns
    return first < area.maxX && end > area.x && firstRow < area.maxY && endRow > area.y
  }

  /// `mayTouch(area)` of the segment `init(ax:ay:bx:by:reach:outerRadius:innerRadius:)`
  /// would make, from its end points alone: a polyline leaves out the segments far
  /// from a damage box before their square root and divisions.
  @inlinable static func mayTouch(
    _ area: Rect, ax: Int64, ay: Int64, bx: Int64, by: Int64, reach: Int64, outerRadius: Int64
  ) -> Bool {
    let columnReach = max(outerRadius, 0) &+ 8192
    return SubPixel.firstCentre(atOrAfter: min(ax, bx) &- columnReach) < area.maxX
      && SubPixel.endCentre(atOrBefore: max(ax, bx) &+ columnReach) > area.x
      && SubPixel.firstCentre(atOrAfter: min(ay, by) &- reach) < area.maxY
      && SubPixel.endCentre(atOrBefore: max(ay, by) &+ reach) > area.y
  }

  /// `value = quotient * divisor + remainder` with `0 <= remainder < divisor`
  /// (division rounded towards minus infinity), for `divisor > 0`.
  @inlinable static func floorDivision(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    var quotient = value / divisor, remainder = value % divisor
    if remainder < 0 {
      quotient &-= 1
      remainder &+= divisor
    }
    return (quotient, remainder)
  }

  /// `radius * length / |uy|`: along a row, how far each long side is from the axis.
  @inlinable func sideDistance(radius: Int64) -> Int64 {
    uy == 0 ? 0 : radius &* length / Int64(uy.magnitude)
  }

  /// Where row `y` crosses the segment's axis (Q12; meaningless when `uy` is 0).
  @inlinable func axisCrossing(atY y: Int64) -> Int64 {
    uy == 0 ? ax : ax &+ (y &- ay) &* ux / uy
  }

  /// The polyline's two cuts of row `y`: the Q12 x ranges on that row within
  /// `outerRadius` of the segment (widened: possibly slightly too long, never too
  /// short; "may touch") and within `innerRadius` (narrowed: possibly slightly too
  /// short, never too long; "surely inside"), or nil where the row misses. A cut is
  /// the hull of the two end discs' cuts and the points where the row crosses the two
  /// long sides between the ends (a crossing beyond an end lies outside the capsule;
  /// the end disc holds the true end of the cut there). Both cuts share the axis
  /// crossing and use the side distances worked out at set-up.
  ///
  /// Besides the axis crossing, both cuts share the rows' squared distances to the
  /// ends and `along` at the axis crossing: a side crossing `half` from it has
  /// `along` `half * ux` from that, the same integer `span` gets by multiplying out
  /// (an identity in wrapping arithmetic). So the end distances are squared once
  /// for both cuts and a side crossing costs no multiplication of its own.
  ///
  /// Most rows of a long segment lie between its ends, more than the outer radius
  /// from either end's row: there neither end disc reaches the row and both side
  /// crossings pass their range tests, so each cut is just the axis crossing plus
  /// and minus its side distance (see `isSideRow`), and the general cut
  /// is left for the rows near the ends.
  /// `RowWalkerTests` and `PolylineRowTests` hold the result to the plain one-cut
  /// reference (Tests/RasterTests/ReferenceCapsuleSpan.swift).
  ///
  /// The side rows' few instructions are inlined into the row loop; the rest is
  /// `endSpans(atY:)`, out of line, as it was before (its call and the copy of its
  /// result cost more than the side rows' whole cut).
  @inlinable @inline(__always)
  func spans(atY y: Int64) -> (outer: (low: Int64, high: Int64)?, inner: (low: Int64, high: Int64)?) {
    let dyA = y &- ay, dyB = y &- by
    if isSideRow(dyA: dyA, dyB: dyB, dyASquared: dyA &* dyA, dyBSquared: dyB &* dyB) {
      let xc = axisCrossing(atY: y)
      let outerHalf = outerSide &+ 2, innerHalf = innerSide &- 2
      let inner: (low: Int64, high: Int64)? = innerRadius > 0 && innerHalf > 0 ? (xc &- innerHalf, xc &+ innerHalf) : nil
      return ((xc &- outerHalf, xc &+ outerHalf), inner)
    }
    return endSpans(atY: y)
  }

  /// `spans(atY:)` on a row near an end (or any row): the general cuts.
  @inlinable @inline(never)
  func endSpans(atY y: Int64) -> (outer: (low: Int64, high: Int64)?, inner: (low: Int64, high: Int64)?) {
    let xc = axisCrossing(atY: y)
    let dyA = y &- ay, dyB = y &- by
    let dyASquared = dyA &* dyA, dyBSquared = dyB &* dyB
    let alongAtCrossing = (xc &- ax) &* ux &+ dyA &* uy
    return (
      cut(radius: outerRadius, widen: true, axisCrossing: xc, side: outerSide, dyASquared: dyASquared,
          dyBSquared: dyBSquared, alongAtCrossing: alongAtCrossing),
      cut(radius: innerRadius, widen: false, axisCrossing: xc, side: innerSide, dyASquared: dyASquared,
          dyBSquared: dyBSquared, alongAtCrossing: alongAtCrossing))
  }

  /// Whether row `y` (`dyA = y - ay`, `dyB = y - by`) lies between the ends, at
  /// least the outer radius plus a pixel from each end's row. On such a row the
  /// end discs miss it (`dy^2 >= radius^2` for both radii) and the side crossings
  /// `xc -+ half` pass `cut`'s tests with room to spare: `along` there is about
  /// `dyA * length^2 / uy`, at least `radius * length^2 / |uy|` from either end,
  /// more than `half * |ux|` (about `radius * length * |ux| / |uy|`, as `length >=
  /// |ux|`), and the crossing stays within the radius of the end points' columns
  /// (`length - |uy| <= |ux|`). The extra pixel covers the roundings of `xc`,
  /// `side` and `length` many times over. So `cut` would return exactly
  /// `(xc - half, xc + half)`.
  @inlinable @inline(__always) func isSideRow(dyA: Int64, dyB: Int64, dyASquared: Int64, dyBSquared: Int64) -> Bool {
    let clear = outerRadius &+ 4096
    return outerRadius > 0 && (dyA < 0) != (dyB < 0) && min(dyASquared, dyBSquared) >= clear &* clear
  }

  /// The pixel columns the capsule covers on the row whose centre is `y`, within
  /// `area`: `start..<end` in all, of which `innerStart..<innerEnd` fully (empty,
  /// at `end`, where no pixel is fully covered); nil where it covers none. Both
  /// polyline strokes walk their rows through this, so they agree on every edge.
  @inlinable func pixelColumns(
    atY y: Int64, within area: Rect
  ) -> (start: Int, end: Int, innerStart: Int, innerEnd: Int)? {
    let (outerSpan, innerSpan) = spans(atY: y)
    guard let outer = outerSpan else { return nil }
    let start = max(SubPixel.firstCentre(atOrAfter: outer.low), area.x)
    let end = min(SubPixel.endCentre(atOrBefore: outer.high), area.maxX)
    if start >= end { return nil }
    if let inner = innerSpan {
      let s = max(SubPixel.firstCentre(atOrAfter: inner.low), start)
      let e = min(SubPixel.endCentre(atOrBefore: inner.high), end)
      if s < e { return (start, end, s, e) }
    }
    return (start, end, end, end)
  }

  /// One cut from the row's shared terms (see `spans(atY:)`): the reference one-cut
  /// steps in the same order.
  @inlinable @inline(__always) func cut(
    radius: Int64, widen: Bool, axisCrossing xc: Int64, side: Int64, dyASquared: Int64, dyBSquared: Int64,
    alongAtCrossing: Int64
  ) -> (low: Int64, high: Int64)? {
    if radius <= 0 { return nil }
    var low = Int64.max, high = Int64.min
    let radiusSquared = radius &* radius
    let pad: Int64 = widen ? 1 : 0
    if dyASquared < radiusSquared {
      let h = SubPixel.squareRoot(radiusSquared &- dyASquared) &+ pad
      low = ax &- h
      high = ax &+ h
    }
    if dyBSquared < radiusSquared {
      let h = SubPixel.squareRoot(radiusSquared &- dyBSquared) &+ pad
      low = min(low, bx &- h)
      high = max(high, bx &+ h)
    }
    if uy == 0 {
      if dyASquared < radiusSquared {
        low = min(low, min(ax, bx))
        high = max(high, max(ax, bx))
      }
    } else {
      let half = side &+ (widen ? 2 : -2)
      if half > 0 {
        let slack = widen ? 4 &* length : 0
        let minX = min(ax, bx) &- radius &- 4096, maxX = max(ax, bx) &+ radius &+ 4096
        let halfAlong = half &* ux
        var x = xc &- half
        var along = alongAtCrossing &- halfAlong
        for _ in 0..<2 {
          if x >= minX && x <= maxX && along >= -slack && along <= lengthSquared &+ slack {
            low = min(low, x)
            high = max(high, x)
          }
          x = xc &+ half
          along = alongAtCrossing &+ halfAlong
        }
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// The coverage (ramp units) of the pixel centred at `(px, py)` (Q12) by the
  /// capsule of radius `radius` around the segment.
  ///
  /// The nearest point of the segment decides the edge: on a side, the side's
  /// normal; at an end, the direction from that end. A capsule thinner than a pixel
  /// diagonal also subtracts the far edge, so a hairline is not drawn solid.
  @inlinable func coverage(px: Int64, py: Int64, radius: Int64, rasterizer: Rasterizer) -> Int32 {
    let vx = px &- ax, vy = py &- ay
    let along = vx &* ux &+ vy &* uy
    let distance: Int64
    let angle: Int
    var curvature: Int64 = 0
    if along <= 0 || lengthSquared == 0 {
      distance = SubPixel.squareRoot(vx &* vx &+ vy &* vy)
      angle = Rasterizer.angleIndex(Int64(vx.magnitude), Int64(vy.magnitude))
      curvature = radius
    } else if along >= lengthSquared {
      let wx = px &- bx, wy = py &- by
      distance = SubPixel.squareRoot(wx &* wx &+ wy &* wy)
      angle = Rasterizer.angleIndex(Int64(wx.magnitude), Int64(wy.magnitude))
      curvature = radius
    } else {
      let cross = vx &* uy &- vy &* ux
      distance = Int64(cross.magnitude) / length
      angle = sideAngle
    }
    let inside = rasterizer.curvedEdgeCoverage(radius &- distance, angle: angle, radius: curvature)
    if radius &+ distance >= Rasterizer.edgeReach { return inside }
    return max(0, inside &- rasterizer.edgeCoverage(-radius &- distance, angle: angle))
  }
}
