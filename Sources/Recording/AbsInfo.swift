/// The range of one absolute axis, as in the kernel's `struct input_absinfo`.
///
/// `libinput record` writes it as `code: [min, max, fuzz, flat, resolution]`; only the
/// range matters for replay, the rest is kept so a device description round-trips.
public struct AbsInfo: Hashable, Sendable {
  public var minimum: Int32
  public var maximum: Int32
  public var fuzz: Int32
  public var flat: Int32
  /// Units per millimetre (0 when the device does not say).
  public var resolution: Int32

  /// Makes an axis range.
  ///
  /// - Parameters:
  ///   - minimum: the smallest value the axis reports.
  ///   - maximum: the largest value the axis reports.
  ///   - fuzz: the kernel's noise filter width.
  ///   - flat: the dead zone (joysticks).
  ///   - resolution: units per millimetre, or 0.
  @inlinable public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
    self.minimum = minimum
    self.maximum = maximum
    self.fuzz = fuzz
    self.flat = flat
    self.resolution = resolution
  }

  /// Whether the axis reports `value`.
  @inlinable public func contains(_ value: Int32) -> Bool { value >= minimum && value <= maximum }

  /// How many distinct values the axis has: `maximum - minimum + 1`, as libinput's
  /// `absinfo_range` counts them (so `maximum` maps just short of the panel edge).
  @inlinable public var valueCount: Int64 { Int64(maximum) - Int64(minimum) + 1 }
}
