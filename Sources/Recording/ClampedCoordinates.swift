/// Positions a device sent outside its declared axis range (`absinfo:`), which replay
/// moved onto the nearest end of the range.
///
/// Real panels do this: a finger at the very edge, a controller whose firmware and
/// kernel driver disagree by a few units. libinput takes such values with a warning
/// ("is outside expected range", see its absolute-coordinate-ranges page), so the
/// lock screen sees them; refusing the whole recording would hide the gesture that a
/// user wants reproduced. Only the first value is kept, with the count, so the report
/// costs nothing per event and makes one line.
public struct ClampedCoordinates: Sendable, Equatable {
  /// How many positions were clamped.
  public var count: Int
  /// The 1-based line of the first clamped row.
  public var line: Int
  /// The first clamped row's axis (`ABS_MT_POSITION_X`...).
  public var code: UInt16
  /// The first clamped row's value, as recorded.
  public var value: Int32
  /// The axis range it was clamped onto.
  public var minimum: Int32
  public var maximum: Int32

  /// Makes a report (the converter starts one at the first clamped row).
  ///
  /// - Parameters:
  ///   - count: how many positions were clamped.
  ///   - line: the first clamped row's line.
  ///   - code: its axis.
  ///   - value: its value as recorded.
  ///   - minimum: the axis range's lower end.
  ///   - maximum: the axis range's upper end.
  public init(count: Int, line: Int, code: UInt16, value: Int32, minimum: Int32, maximum: Int32) {
    self.count = count
    self.line = line
    self.code = code
    self.value = value
    self.minimum = minimum
    self.maximum = maximum
  }

  /// The warning for the user, one line: where, how many, the first, and what it means.
  ///
  /// - Parameters:
  ///   - path: the recording's file name.
  ///   - device: the replayed device's name.
  public func warning(path: String, device: String) -> String {
    let positions = RecordingError.count(count, "position")
    return "warning: \(path):\(line): device '\(RecordingError.clip(device))' sent \(positions) outside its absinfo range, the first \(EvdevCode.absName(code)) \(value) outside \(minimum)...\(maximum); replayed clamped onto the range, at the panel's edge, as real panels send such values (if most positions are outside, the device description does not belong to these events: record again)"
  }
}
