/// One kernel input event as `libinput record` writes it: `[sec, usec, type, code, value]`.
///
/// The reader keeps rows exactly as recorded (plus the line they came from), and the
/// converter gives them meaning; that split lets tests feed the converter rows made in
/// memory, with no YAML in between.
public struct EvdevRow: Hashable, Sendable {
  /// Whole seconds since the recording's first event (libinput record subtracts it).
  public var seconds: UInt32
  /// Microseconds within the second, 0 to 999 999.
  public var microseconds: UInt32
  /// The event type (`EV_SYN` 0, `EV_KEY` 1, `EV_ABS` 3, ...).
  public var type: UInt16
  /// The event code within the type (`ABS_MT_SLOT` 47, `BTN_TOUCH` 330, ...).
  public var code: UInt16
  /// The value: a position, a slot, a tracking ID, or 0/1 for a button.
  public var value: Int32
  /// The 1-based line of the row in its file, for error messages; 0 when made in memory.
  public var line: Int

  /// Makes a row.
  ///
  /// - Parameters:
  ///   - seconds: whole seconds of the event time.
  ///   - microseconds: the fraction of the second, 0 to 999 999.
  ///   - type: the evdev event type.
  ///   - code: the evdev event code.
  ///   - value: the event value.
  ///   - line: where the row is in its file (0 when there is no file).
  @inlinable public init(
    seconds: UInt32, microseconds: UInt32, type: UInt16, code: UInt16, value: Int32, line: Int = 0
  ) {
    self.seconds = seconds
    self.microseconds = microseconds
    self.type = type
    self.code = code
    self.value = value
    self.line = line
  }

  /// The event time in microseconds.
  @inlinable public var timeMicroseconds: UInt64 { UInt64(seconds) * 1_000_000 + UInt64(microseconds) }

  /// Whether this row ends a hardware frame (`EV_SYN` / `SYN_REPORT`).
  @inlinable public var isReport: Bool { type == EvdevCode.eventSyn && code == EvdevCode.synReport }
}
