/// What a recorded device is, decided from its event codes and input properties the
/// way udev's `input_id` builtin tags devices for libinput (`ID_INPUT_TOUCHSCREEN`,
/// `ID_INPUT_TABLET`, ...), so replay calls a device what the lock screen's libinput
/// would take it for.
///
/// Only the evdev description is used, not the recording's `udev:` properties: those
/// are missing from hand-made files and from older libinput versions, and they would
/// say the same for every device libinput can use.
public enum DeviceKind: Sendable, Equatable {
  /// Touches on the screen: multitouch slots or `BTN_TOUCH`, and `INPUT_PROP_DIRECT`
  /// or no finger tool (single-touch resistive panels often lack the property).
  case touchscreen
  /// A pen: `BTN_TOOL_PEN` or `BTN_STYLUS` with absolute X/Y (graphics tablets and
  /// pen displays).
  case tablet
  /// The buttons and rings beside a tablet's surface (`BTN_0` and `BTN_STYLUS`
  /// without `BTN_TOOL_PEN`); its X/Y axes are not a position.
  case tabletPad
  /// A finger tool without `INPUT_PROP_DIRECT`: positions on a surface beside the
  /// screen, which libinput turns into pointer motion.
  case touchpad
  /// Absolute X/Y with mouse buttons and no touch: QEMU's and VMware's tablets.
  case absolutePointer
  /// Relative X/Y motion.
  case mouse
  /// Keys or buttons and nothing else.
  case keys
  /// None of the above (a switch, an accelerometer, a joystick...).
  case other

  /// The lower-case name for messages.
  public var name: String {
    switch self {
    case .touchscreen: return "touchscreen"
    case .tablet: return "tablet pen"
    case .tabletPad: return "tablet pad"
    case .touchpad: return "touchpad"
    case .absolutePointer: return "absolute pointer"
    case .mouse: return "mouse"
    case .keys: return "keyboard or buttons"
    case .other: return "other device"
    }
  }

  /// Why a device of this kind is not replayed unless asked for, or nil for the kinds
  /// replay picks by itself.
  public var note: String? {
    switch self {
    case .touchscreen, .tablet, .absolutePointer: return nil
    case .tabletPad: return "buttons and rings, no pen position"
    case .touchpad: return "positions on a surface beside the screen, not on it"
    case .mouse: return "relative motion only, no position on the screen"
    case .keys: return "no position at all"
    case .other: return "no absolute X/Y position"
    }
  }

  /// Whether replay picks a device of this kind without `--device`, and before which
  /// others: touchscreens (2) over tablets and absolute pointers (1); 0 never.
  var automaticRank: Int {
    switch self {
    case .touchscreen: return 2
    case .tablet, .absolutePointer: return 1
    case .tabletPad, .touchpad, .mouse, .keys, .other: return 0
    }
  }
}
