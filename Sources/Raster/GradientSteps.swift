/// The colours of a vertical gradient's rows, one row after the next, each exactly
/// `Canvas.gradientColor(top:bottom:step:of:)` without its four divisions.
///
/// Each channel's colour on step `s` of `steps` is `n / steps` (rounded down) with
/// `n = a * (steps - s) + b * s + steps / 2 = a * steps + (b - a) * s + steps / 2`:
/// one step adds `b - a` to `n`. So the channel keeps `n` as a quotient and a
/// remainder below `steps` and adds the step's own quotient and remainder (one
/// carry at most, as both remainders are below `steps`), the same integers as
/// dividing. A full-screen gradient took about 85 instructions a row for its
/// colour, a twentieth of a 1080p frame's fill.
@usableFromInline struct GradientSteps {
  /// Per channel (blue, green, red, alpha): the quotient, the remainder, and the
  /// step's quotient and remainder.
  @usableFromInline var quotients: SIMD4<Int32>
  @usableFromInline var remainders: SIMD4<Int32>
  @usableFromInline let quotientSteps: SIMD4<Int32>
  @usableFromInline let remainderSteps: SIMD4<Int32>
  @usableFromInline let steps: Int32

  /// The gradient from `top` (step 0) to `bottom` (step `steps`), at step `step`
  /// (`0 <= step <= steps`; any step when `steps <= 0`, which is all `top`).
  @inlinable init(top: Color, bottom: Color, steps: Int, step: Int) {
    let a = SIMD4<Int32>(Int32(top.b), Int32(top.g), Int32(top.r), Int32(top.a))
    guard steps > 0 else {
      (quotients, remainders, quotientSteps, remainderSteps, self.steps) = (a, .zero, .zero, .zero, 1)
      return
    }
    let b = SIMD4<Int32>(Int32(bottom.b), Int32(bottom.g), Int32(bottom.r), Int32(bottom.a))
    let count = Int32(steps)
    self.steps = count
    // n <= 255 * steps + steps / 2 fits an Int32 for any rectangle a canvas holds.
    let n = a &* count &+ (b &- a) &* Int32(step) &+ count / 2
    quotients = n / count
    remainders = n % count
    // b - a as a quotient and a remainder in 0..<steps (rounded towards minus infinity).
    let difference = b &- a
    var q = difference / count, r = difference % count
    let negative = r .< 0
    q.replace(with: q &- 1, where: negative)
    r.replace(with: r &+ count, where: negative)
    quotientSteps = q
    remainderSteps = r
  }

  /// The current row's colour.
  @inlinable @inline(__always) var color: Color {
    Color(r: UInt8(truncatingIfNeeded: quotients[2]), g: UInt8(truncatingIfNeeded: quotients[1]),
          b: UInt8(truncatingIfNeeded: quotients[0]), a: UInt8(truncatingIfNeeded: quotients[3]))
  }

  /// Moves to the next row.
  @inlinable @inline(__always) mutating func advance() {
    quotients &+= quotientSteps
    remainders &+= remainderSteps
    let carry = remainders .>= steps
    remainders.replace(with: remainders &- steps, where: carry)
    quotients.replace(with: quotients &+ 1, where: carry)
  }
}
