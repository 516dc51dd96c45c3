import PatternCore

@testable import Raster

/// The capsule coverage formula as it stood before `CapsuleSegment.RowWalker`,
/// frozen here so the walker (and any later change to
/// `CapsuleSegment.coverage(px:py:radius:rasterizer:)`) is held to the bytes the
/// golden images were recorded with: one square root or one 64-bit division per
/// pixel, straight from the definition.
enum ReferenceCapsuleCoverage {
  /// The coverage (ramp units) of the pixel centred at `(px, py)` (Q12) by the
  /// capsule of radius `radius` around `segment`: the nearest point of the segment
  /// decides the edge (a side's normal, or the direction from an end); a capsule
  /// thinner than a pixel diagonal also subtracts the far edge.
  static func coverage(of segment: CapsuleSegment, px: Int64, py: Int64, radius: Int64, rasterizer: Rasterizer) -> Int32 {
    let (ax, ay, bx, by) = (segment.ax, segment.ay, segment.bx, segment.by)
    let ux = bx &- ax, uy = by &- ay
    let lengthSquared = ux &* ux &+ uy &* uy
    let vx = px &- ax, vy = py &- ay
    let along = vx &* ux &+ vy &* uy
    let distance: Int64
    let angle: Int
    var curvature: Int64 = 0
    if along <= 0 || lengthSquared == 0 {
      distance = Int64(integerSquareRoot(UInt64(vx &* vx &+ vy &* vy)))
      angle = Rasterizer.angleIndex(Int64(vx.magnitude), Int64(vy.magnitude))
      curvature = radius
    } else if along >= lengthSquared {
      let wx = px &- bx, wy = py &- by
      distance = Int64(integerSquareRoot(UInt64(wx &* wx &+ wy &* wy)))
      angle = Rasterizer.angleIndex(Int64(wx.magnitude), Int64(wy.magnitude))
      curvature = radius
    } else {
      let length = Int64(integerSquareRoot(UInt64(lengthSquared)))
      let cross = vx &* uy &- vy &* ux
      distance = Int64(cross.magnitude) / length
      angle = Rasterizer.angleIndex(Int64(ux.magnitude), Int64(uy.magnitude))
    }
    let inside = rasterizer.curvedEdgeCoverage(radius &- distance, angle: angle, radius: curvature)
    if radius &+ distance >= Rasterizer.edgeReach { return inside }
    return max(0, inside &- rasterizer.edgeCoverage(-radius &- distance, angle: angle))
  }
}
