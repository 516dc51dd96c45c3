/// Which device of a recording to replay: `--device N|NAME` (read by the settings
/// table's grammar), or the rule.
///
/// `libinput record --all` (and `--multiple`) writes every device it recorded into one
/// file: keyboards, touchpads and the touchscreen of a laptop, in the order of their
/// event nodes. The rule picks what a pattern lock is drawn with; a number or a name
/// overrides it.
public enum DeviceSelection: Sendable, Equatable {
  /// The first touchscreen (`DeviceKind.touchscreen`) that recorded events, else the
  /// first tablet or absolute pointer that did.
  case automatic
  /// The device at this place in `devices:`, 1 for the first: people count from 1,
  /// and the refusal that lists the devices numbers them so.
  case number(Int)
  /// The first device with this evdev name (`evdev: name:`).
  case name(String)

  /// `number 3`, `named 'EP0430M09'`, for messages.
  public var description: String {
    switch self {
    case .automatic: return "chosen by the rule"
    case .number(let n): return "number \(n)"
    case .name(let name): return "named '\(RecordingError.clip(name))'"
    }
  }
}
