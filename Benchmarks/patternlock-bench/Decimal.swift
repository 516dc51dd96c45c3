/// Fixed-decimal text for reports (no `String(format:)` without Foundation).
enum Decimal {
  /// `value` rounded to `digits` fraction digits: `text(2.345, digits: 2)` is `2.35`.
  static func text(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    var unit = 1
    for _ in 0..<digits { unit *= 10 }
    var text = (value < 0 && scaled != 0 ? "-" : "") + String(scaled / unit)
    if digits > 0 {
      var fraction = String(scaled % unit)
      while fraction.count < digits { fraction = "0" + fraction }
      text += "." + fraction
    }
    return text
  }

  /// A decimal number at the start of `text` (`412.3`), or nil.
  static func parse<S: Sequence<UInt8>>(_ text: S) -> Double? {
    var value = 0.0, scale = 0.0, digits = 0
    for c in text {
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        let d = Double(c - UInt8(ascii: "0"))
        if scale == 0 {
          value = value * 10 + d
        } else {
          value += d * scale
          scale /= 10
        }
        digits += 1
      } else if c == UInt8(ascii: "."), scale == 0 {
        scale = 0.1
      } else {
        break
      }
    }
    return digits > 0 ? value : nil
  }
}
