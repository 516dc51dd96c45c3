extension CapsuleSegment {
  /// Walks pixel centres along one row, left to right, giving each pixel exactly
  /// `coverage(px:py:radius:rasterizer:)` without a division on the long sides.
  ///
  /// Beside the segment (`0 < along < lengthSquared`) the coverage depends on the
  /// distance `|cross| / length` (rounded down), and both `along` and `cross` are
  /// affine in the pixel's x: one pixel right adds `4096 * ux` to `along` and
  /// `4096 * uy` to `cross`. So the walker divides `cross` by `length` once, at its
  /// first pixel, takes the step `4096 * uy` divided once per segment, and then adds the step's
  /// quotient and remainder per pixel (one carry at most, as both remainders are
  /// below `length`). With `cross = q * length + r`, `0 <= r < length`, the
  /// truncated `|cross| / length` is `q` when `q >= 0` and `-(q + 1)` or `-q` (as
  /// `r` is non-zero or not) below: the same integer as the division, so the same
  /// ramp entry and the same byte. The edge pixels of the long sides,
  /// most of a thick line's anti-aliasing, were each a 64-bit division before.
  ///
  /// Pixels past either end (the round caps) and zero-length segments (dots) take
  /// `coverage(px:py:radius:rasterizer:)` itself: their distance is a square root
  /// of a sum of squares, which is not affine. Rejected: a Newton step seeded from
  /// the previous pixel's root, as the caps are a small share of a row and the
  /// hardware root plus correction in `integerSquareRoot` is already short.
  /// `RowWalkerTests` holds every pixel to a frozen copy of the per-pixel formula.
  @usableFromInline struct RowWalker {
    /// The current pixel centre (Q12) and the row's centre.
    @usableFromInline var px: Int64
    @usableFromInline let py: Int64
    /// `(p - a) . (b - a)` at the current pixel (Q24).
    @usableFromInline var along: Int64
    /// `(p - a) x (b - a) = quotient * length + remainder`, `0 <= remainder < length`.
    @usableFromInline var quotient: Int64 = 0, remainder: Int64 = 0
    /// `4096 * uy = quotientStep * length + remainderStep`, `0 <= remainderStep <
    /// length`: the cross product's change per pixel, divided (0 for a dot).
    @usableFromInline var quotientStep: Int64 = 0, remainderStep: Int64 = 0
    /// `4096 * ux`: `along`'s change per pixel.
    @usableFromInline let alongStep: Int64

    /// A walker at the centre of pixel `(x, y)` (`py` is `SubPixel.centre(y)`).
    @inlinable init(segment: CapsuleSegment, x: Int, py: Int64) {
      px = SubPixel.centre(x)
      self.py = py
      let vx = px &- segment.ax, vy = py &- segment.ay
      along = vx &* segment.ux &+ vy &* segment.uy
      alongStep = 4096 &* segment.ux
      if segment.length > 0 {
        (quotient, remainder) = CapsuleSegment.floorDivision(vx &* segment.uy &- vy &* segment.ux, by: segment.length)
        (quotientStep, remainderStep) = (segment.quotientStep, segment.remainderStep)
      }
    }

    /// The current pixel's coverage (ramp units), equal to `segment.coverage(px:
    /// py:radius:rasterizer:)`; then moves one pixel right.
    ///
    /// - Parameters:
    ///   - segment: the segment the walker was made for.
    ///   - radius: the capsule's radius (Q12).
    ///   - rasterizer: the ramp tables.
    @inlinable mutating func next(of segment: CapsuleSegment, radius: Int64, rasterizer: Rasterizer) -> Int32 {
      let result: Int32
      if along <= 0 || along >= segment.lengthSquared {
        result = RowWalker.endCoverage(of: segment, px: px, py: py, radius: radius, rasterizer: rasterizer)
      } else {
        // `coverage`'s side branch: no curvature, so `curvedEdgeCoverage` is the
        // plain ramp; `lengthSquared > 0` here, so `length > 0`.
        let distance = quotient >= 0 ? quotient : -(quotient &+ (remainder != 0 ? 1 : 0))
        let inside = rasterizer.edgeCoverage(radius &- distance, angle: segment.sideAngle)
        if radius &+ distance >= Rasterizer.edgeReach {
          result = inside
        } else {
          result = max(0, inside &- rasterizer.edgeCoverage(-radius &- distance, angle: segment.sideAngle))
        }
      }
      px &+= 4096
      along &+= alongStep
      quotient &+= quotientStep
      remainder &+= remainderStep
      // (A dot's length is 0: its quotient counts up here but is never read, as a
      // dot has no side branch, `0 < along < lengthSquared = 0`.)
      if remainder >= segment.length {
        remainder &-= segment.length
        quotient &+= 1
      }
      return result
    }

    /// `Rasterizer.coverageByte(next(of:radius:rasterizer:))` for a capsule whose
    /// radius is at least `Rasterizer.edgeReach`: a side pixel's byte comes
    /// straight from the side angle's byte ramps (`inside`, `outside`: the
    /// rasterizer's `insideBytes` and `outsideBytes` at that angle's row), without
    /// the ramp entry's rounding to a byte per pixel.
    @inlinable @inline(__always) mutating func nextByte(
      of segment: CapsuleSegment, radius: Int64, inside: UnsafePointer<UInt8>, outside: UnsafePointer<UInt8>,
      rasterizer: Rasterizer
    ) -> UInt8 {
      let result: UInt8
      if along <= 0 || along >= segment.lengthSquared {
        let coverage = RowWalker.endCoverage(of: segment, px: px, py: py, radius: radius, rasterizer: rasterizer)
        result = UInt8(truncatingIfNeeded: Rasterizer.coverageByte(coverage))
      } else {
        // `edgeCoverage(radius - distance)`; the far edge is never reached, as
        // `radius + distance >= radius >= edgeReach`.
        let distance = quotient >= 0 ? quotient : -(quotient &+ (remainder != 0 ? 1 : 0))
        let t = radius &- distance
        if t >= 0 {
          let step = Int(truncatingIfNeeded: (t &+ 8) >> 4)
          result = step >= Rasterizer.rampLength ? 255 : inside[step]
        } else {
          let step = Int(truncatingIfNeeded: (8 &- t) >> 4)
          result = step >= Rasterizer.rampLength ? 0 : outside[step]
        }
      }
      px &+= 4096
      along &+= alongStep
      quotient &+= quotientStep
      remainder &+= remainderStep
      if remainder >= segment.length {
        remainder &-= segment.length
        quotient &+= 1
      }
      return result
    }

    /// Moves `count` pixels right (`count >= 0`) as `count` calls of `next` would,
    /// in one step: across a polyline row's full run, from its left edge pixels to
    /// its right ones, instead of making a second walker (two multiplications and
    /// a division either way, but without the set-up). The cross product's
    /// `quotient * length + remainder` is the same sum, and with `remainder` back
    /// in `0..<length` the same pair.
    @inlinable mutating func skip(_ count: Int, of segment: CapsuleSegment) {
      let n = Int64(count)
      px &+= 4096 &* n
      along &+= alongStep &* n
      if segment.length > 0 {
        quotient &+= quotientStep &* n
        remainder &+= remainderStep &* n
        if remainder >= segment.length {
          quotient &+= remainder / segment.length
          remainder %= segment.length
        }
      }
    }

    /// `segment.coverage(px:py:radius:rasterizer:)` for a pixel past an end, kept
    /// out of line: inlined, the caps' square root and divisions made the walker's
    /// loop spill registers, which cost more than the call (callgrind, 1280x720).
    @inlinable @inline(never)
    static func endCoverage(of segment: CapsuleSegment, px: Int64, py: Int64, radius: Int64, rasterizer: Rasterizer) -> Int32 {
      segment.coverage(px: px, py: py, radius: radius, rasterizer: rasterizer)
    }
  }
}
