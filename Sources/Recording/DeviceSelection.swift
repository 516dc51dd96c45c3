/// Which device of a recording to replay: `--device N|NAME`, or the rule.
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

  /// Reads a `--device` argument: all digits is a number, anything else a name.
  ///
  /// - Parameter argument: `2`, or a device name such as `EP0430M09`.
  /// - Returns: nil for an empty argument or a number below 1.
  public init?(argument: String) {
    guard !argument.isEmpty else { return nil }
    if argument.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      // Nine digits: no file has that many devices, and it cannot overflow.
      guard argument.utf8.count <= 9, let number = RecordingParser.integer(argument), number >= 1 else { return nil }
      self = .number(Int(number))
    } else {
      self = .name(argument)
    }
  }

  /// `number 3`, `named 'EP0430M09'`, for messages.
  public var description: String {
    switch self {
    case .automatic: return "chosen by the rule"
    case .number(let n): return "number \(n)"
    case .name(let name): return "named '\(RecordingError.clip(name))'"
    }
  }
}
