/// A touchscreen calibration: the first two rows of a 3x3 affine matrix, as libinput
/// and udev's `LIBINPUT_CALIBRATION_MATRIX` take them, in normalised device units
/// (`x' = a*x + b*y + c`, `y' = d*x + e*y + f`, with x and y from 0 to 1).
///
/// Floats are used because libinput's API takes floats; they only configure the
/// device at start-up and never enter our own geometry.
public struct CalibrationMatrix: Hashable, Sendable {
  /// a b c d e f.
  public let values: [Float]

  /// The identity (no correction).
  public static let identity = CalibrationMatrix(checked: [1, 0, 0, 0, 1, 0])

  private init(checked values: [Float]) { self.values = values }

  /// Parses six numbers separated by spaces or commas, such as `"0 1 0 -1 0 1"` (a
  /// panel turned 90°). Each is a decimal with an optional sign and fraction.
  ///
  /// - Throws: `InputError.badCalibration`.
  public init(parsing text: String) throws(InputError) {
    var values: [Float] = []
    for field in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
      guard let v = CalibrationMatrix.decimal(Substring(field)) else { throw .badCalibration(text: text) }
      values.append(v)
    }
    guard values.count == 6 else { throw .badCalibration(text: text) }
    self.values = values
  }

  /// A decimal number (`-1`, `0.5`, `+.25`), or nil. Written out because Embedded
  /// Swift has no `Float(String)`; at most 9 significant digits are kept.
  static func decimal(_ text: Substring) -> Float? {
    var negative = false
    var mantissa: Int64 = 0
    var scale: Int64 = 1
    var digits = 0
    var seenPoint = false
    for (i, c) in text.utf8.enumerated() {
      switch c {
      case UInt8(ascii: "-") where i == 0: negative = true
      case UInt8(ascii: "+") where i == 0: break
      case UInt8(ascii: ".") where !seenPoint: seenPoint = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digits += 1
        guard digits <= 9 else { return nil }
        mantissa = mantissa * 10 + Int64(c - UInt8(ascii: "0"))
        if seenPoint { scale *= 10 }
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    let value = Float(mantissa) / Float(scale)
    return negative ? -value : value
  }
}
