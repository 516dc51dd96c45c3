/// Information in thousandths of a bit: the cost of an event of probability p is
/// -log2(p) * 1000. Integer only, so every architecture ranks patterns the same.
enum Millibits {
  /// -log2(part / whole) in millibits, for 0 < part <= whole.
  static func of(_ part: Int, in whole: Int) -> Int {
    precondition(part > 0 && part <= whole, "a probability's part must be in 1...whole")
    return logarithm(whole) - logarithm(part)
  }

  /// The logarithms of the small numbers a move's weights add up to, worked out once:
  /// walking every pattern takes about a million of them.
  private static let smallLogarithms: [Int] = (0..<4096).map { $0 == 0 ? 0 : log2Millibits($0) }

  private static func logarithm(_ x: Int) -> Int {
    x < smallLogarithms.count ? smallLogarithms[x] : log2Millibits(x)
  }

  /// log2(x) in millibits for x >= 1, by the bit-by-bit squaring method on a Q30
  /// mantissa (precise to about a millibit).
  static func log2Millibits(_ x: Int) -> Int {
    precondition(x >= 1)
    var integerPart = 0
    var value = UInt64(x)
    while value >= 2 {
      value >>= 1
      integerPart += 1
    }
    // The mantissa x / 2^integerPart in [1, 2), in Q30.
    let one: UInt64 = 1 << 30
    var mantissa = (UInt64(x) << 30) >> UInt64(integerPart)
    var fraction: UInt64 = 0
    var bit: UInt64 = 1 << 19
    for _ in 0..<20 {
      mantissa = (mantissa * mantissa) >> 30
      if mantissa >= 2 * one {
        mantissa >>= 1
        fraction |= bit
      }
      bit >>= 1
    }
    // fraction is log2 of the mantissa in Q20.
    return integerPart * 1000 + Int((fraction * 1000 + (1 << 19)) >> 20)
  }
}
