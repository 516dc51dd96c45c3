import PatternCore

/// The rasteriser's internal coordinates: Q12, 1/4096 of a pixel, in `Int64`.
///
/// `Fixed16` has 16 fraction bits, but a squared 16.16 distance across a large panel
/// overflows `Int64`; dropping four bits keeps every square, cross product and dot
/// product the shapes need (magnitudes below 2^29 each) below 2^59, while 1/4096
/// of a pixel is far finer than the 1/256-pixel steps of the coverage ramp. Pixel
/// `x` covers `[x, x + 1)` and its centre is at `x + 0.5`.
@usableFromInline enum SubPixel {
  /// Q12 units per pixel.
  @inlinable static var one: Int64 { 4096 }
  /// Half a pixel in Q12.
  @inlinable static var half: Int64 { 2048 }

  /// A `Fixed16` in Q12 (rounded down to 1/4096).
  @inlinable static func from(_ value: Fixed16) -> Int64 { Int64(value.raw) >> 4 }

  /// The centre of pixel column (or row) `pixel`, in Q12.
  @inlinable static func centre(_ pixel: Int) -> Int64 { Int64(pixel) &* 4096 &+ 2048 }

  /// The first pixel whose centre is at or after `position`.
  @inlinable static func firstCentre(atOrAfter position: Int64) -> Int {
    Int(-((2048 &- position) >> 12))
  }

  /// The pixel after the last one whose centre is at or before `position`.
  @inlinable static func endCentre(atOrBefore position: Int64) -> Int {
    Int((position &- 2048) >> 12) &+ 1
  }

  /// The integer square root of a non-negative Q24 value, in Q12 (rounded down).
  @inlinable static func squareRoot(_ value: Int64) -> Int64 {
    Int64(integerSquareRoot(UInt64(value)))
  }
}
