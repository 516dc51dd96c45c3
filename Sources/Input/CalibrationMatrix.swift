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

  /// The matrix of six numbers a b c d e f (patternlock.conf's `calibration`, parsed
  /// by Configuration); nil for any other count.
  public init?(values: [Float]) {
    guard values.count == 6 else { return nil }
    self.values = values
  }
}
