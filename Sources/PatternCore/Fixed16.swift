/// A signed 16.16 fixed-point number: 16 integer bits, 16 fractional bits.
///
/// Geometry is fixed point so that the same input gives bit-identical output on
/// x86_64 and aarch64; floating point may differ there through fused multiply-add
/// and library rounding. 16.16 covers ±32767 pixels, far beyond the 3840-pixel
/// panels we lay out, with 1/65536 of a pixel resolution. Products and squares are
/// taken in `Int64` or `Int128`, never in `Int32`.
///
/// Rounding: every conversion and division rounds to nearest, ties away from zero,
/// unless a name says otherwise (`floor`, `ceil`).
public struct Fixed16: Hashable, Comparable, Sendable {
  /// The raw value: the number times 65536.
  public var raw: Int32

  /// The number of fractional bits.
  public static let fractionBits: Int32 = 16
  /// 1.0 in raw units.
  public static let oneRaw: Int32 = 1 << 16

  /// Makes a number from its raw 16.16 representation.
  @inlinable public init(raw: Int32) { self.raw = raw }

  /// Makes a number from a whole number of pixels.
  @inlinable public init(_ integer: Int) { self.raw = Int32(integer) << 16 }

  /// Makes the number `numerator / denominator`, rounded to nearest.
  ///
  /// - Precondition: `denominator` is not zero.
  @inlinable public init(numerator: Int64, denominator: Int64) {
    self.raw = Int32(roundedDivision(numerator << 16, denominator))
  }

  public static let zero = Fixed16(raw: 0)
  public static let one = Fixed16(raw: oneRaw)
  public static let half = Fixed16(raw: oneRaw / 2)

  /// The largest integer not greater than the number.
  @inlinable public var floor: Int { Int(raw >> 16) }
  /// The smallest integer not less than the number.
  @inlinable public var ceil: Int { Int((raw &+ (Fixed16.oneRaw - 1)) >> 16) }
  /// The nearest integer, ties away from zero.
  @inlinable public var rounded: Int {
    raw >= 0 ? Int((raw + Fixed16.oneRaw / 2) >> 16) : -Int((-raw + Fixed16.oneRaw / 2) >> 16)
  }

  @inlinable public static func < (a: Fixed16, b: Fixed16) -> Bool { a.raw < b.raw }
  @inlinable public static func + (a: Fixed16, b: Fixed16) -> Fixed16 { Fixed16(raw: a.raw + b.raw) }
  @inlinable public static func - (a: Fixed16, b: Fixed16) -> Fixed16 { Fixed16(raw: a.raw - b.raw) }
  @inlinable public static prefix func - (a: Fixed16) -> Fixed16 { Fixed16(raw: -a.raw) }
  @inlinable public static func += (a: inout Fixed16, b: Fixed16) { a.raw += b.raw }
  @inlinable public static func -= (a: inout Fixed16, b: Fixed16) { a.raw -= b.raw }

  /// The product, rounded to nearest.
  @inlinable public static func * (a: Fixed16, b: Fixed16) -> Fixed16 {
    Fixed16(raw: Int32(roundedShift(Int64(a.raw) * Int64(b.raw), by: 16)))
  }
  /// The number times a whole number.
  @inlinable public static func * (a: Fixed16, k: Int) -> Fixed16 { Fixed16(raw: a.raw * Int32(k)) }
  /// The number divided by a whole number, rounded to nearest.
  @inlinable public static func / (a: Fixed16, k: Int) -> Fixed16 {
    Fixed16(raw: Int32(roundedDivision(Int64(a.raw), Int64(k))))
  }
  /// The quotient, rounded to nearest.
  @inlinable public static func / (a: Fixed16, b: Fixed16) -> Fixed16 {
    Fixed16(raw: Int32(roundedDivision(Int64(a.raw) << 16, Int64(b.raw))))
  }

  /// The number scaled by `numerator / denominator` in one rounding step.
  @inlinable public func scaled(by numerator: Int, over denominator: Int) -> Fixed16 {
    Fixed16(raw: Int32(roundedDivision(Int64(raw) * Int64(numerator), Int64(denominator))))
  }
}

/// `numerator / denominator` rounded to nearest, ties away from zero.
///
/// - Precondition: `denominator` is not zero.
@inlinable public func roundedDivision(_ numerator: Int64, _ denominator: Int64) -> Int64 {
  precondition(denominator != 0, "division by zero in fixed-point maths")
  let negative = (numerator < 0) != (denominator < 0)
  let n = numerator.magnitude, d = denominator.magnitude
  let q = Int64((n + d / 2) / d)
  return negative ? -q : q
}

/// `value / 2^shift` rounded to nearest, ties away from zero.
@inlinable public func roundedShift(_ value: Int64, by shift: Int64) -> Int64 {
  let half: Int64 = 1 << (shift - 1)
  return value >= 0 ? (value + half) >> shift : -((-value + half) >> shift)
}

/// The integer square root: the largest `r` with `r * r <= value`.
///
/// Used where a distance is needed exactly, so results agree on every architecture.
///
/// The rasteriser takes one per edge pixel, so it starts from the hardware square
/// root: IEEE 754 rounds it correctly on every architecture, and it is within one of
/// the answer (`Double(value)` rounds values above 2^53). The integer checks after
/// it make the result exact whatever the guess, so no float reaches the output.
/// Rejected: the bit-by-bit method (32 dependent, mispredicted steps: most of a
/// frame's time in scripts/bench) and Newton's method (a 64-bit division per step).
@inlinable public func integerSquareRoot(_ value: UInt64) -> UInt64 {
  let largest: UInt64 = 0xFFFF_FFFF  // the root of UInt64.max, rounded down
  var root = min(UInt64(Double(value).squareRoot()), largest)
  while root &* root > value { root &-= 1 }
  while root < largest && (root &+ 1) &* (root &+ 1) <= value { root &+= 1 }
  return root
}
