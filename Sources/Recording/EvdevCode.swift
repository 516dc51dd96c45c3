/// The evdev types and codes replay understands, from `linux/input-event-codes.h`.
///
/// Spelled out here rather than imported: the kernel header is all macros, and these
/// numbers are kernel ABI that never changes.
public enum EvdevCode {
  public static let eventSyn: UInt16 = 0x00
  public static let eventKey: UInt16 = 0x01
  public static let eventRel: UInt16 = 0x02
  public static let eventAbs: UInt16 = 0x03

  public static let synReport: UInt16 = 0
  /// The kernel's buffer overflowed and events were lost until the next report.
  public static let synDropped: UInt16 = 3

  public static let relX: UInt16 = 0x00
  public static let relY: UInt16 = 0x01

  public static let absX: UInt16 = 0x00
  public static let absY: UInt16 = 0x01
  public static let absMTSlot: UInt16 = 0x2f
  public static let absMTPositionX: UInt16 = 0x35
  public static let absMTPositionY: UInt16 = 0x36
  public static let absMTTrackingID: UInt16 = 0x39

  /// `BTN_0`: the first of the numbered buttons that tablet pads and button boxes have.
  public static let button0: UInt16 = 0x100
  /// `BTN_MOUSE`, the first mouse button code (`BTN_LEFT`)...
  public static let buttonLeft: UInt16 = 0x110
  /// ...up to `BTN_JOYSTICK`, the first code that is not a mouse button.
  public static let buttonJoystick: UInt16 = 0x120
  public static let buttonToolPen: UInt16 = 0x140
  public static let buttonToolFinger: UInt16 = 0x145
  public static let buttonTouch: UInt16 = 0x14a
  public static let buttonStylus: UInt16 = 0x14b

  /// `INPUT_PROP_DIRECT`: the device's coordinates are on the screen (touchscreens,
  /// pen displays), not on a separate surface (touchpads, graphics tablets).
  public static let propertyDirect: UInt16 = 0x01
  /// `INPUT_PROP_MAX`: the largest input property.
  public static let maximumProperty: UInt16 = 0x1f

  /// `EV_MAX`: the largest event type.
  public static let maximumType: UInt16 = 0x1f
  /// `KEY_MAX`: the largest code of any type.
  public static let maximumCode: UInt16 = 0x2ff
  /// `ABS_MAX`: the largest absolute axis code.
  public static let maximumAbsCode: UInt16 = 0x3f
  /// How many multitouch slots replay tracks; more than any touchscreen reports
  /// (FT5406: 10, Goodix: 10, eGalax: 10 to 40).
  public static let maximumSlots = 64

  /// The kernel's name of an absolute axis, for messages (`ABS_MT_POSITION_X`).
  public static func absName(_ code: UInt16) -> String {
    switch code {
    case absX: return "ABS_X"
    case absY: return "ABS_Y"
    case absMTSlot: return "ABS_MT_SLOT"
    case absMTPositionX: return "ABS_MT_POSITION_X"
    case absMTPositionY: return "ABS_MT_POSITION_Y"
    case absMTTrackingID: return "ABS_MT_TRACKING_ID"
    case 0x18: return "ABS_PRESSURE"
    case 0x30: return "ABS_MT_TOUCH_MAJOR"
    case 0x31: return "ABS_MT_TOUCH_MINOR"
    case 0x37: return "ABS_MT_TOOL_TYPE"
    case 0x3a: return "ABS_MT_PRESSURE"
    default: return "ABS_\(code)"
    }
  }
}
