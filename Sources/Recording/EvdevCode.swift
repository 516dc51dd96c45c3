/// The evdev types and codes replay understands, from `linux/input-event-codes.h`.
///
/// Spelled out here rather than imported: the kernel header is all macros, and these
/// numbers are kernel ABI that never changes.
public enum EvdevCode {
  public static let eventSyn: UInt16 = 0x00
  public static let eventKey: UInt16 = 0x01
  public static let eventAbs: UInt16 = 0x03

  public static let synReport: UInt16 = 0
  /// The kernel's buffer overflowed and events were lost until the next report.
  public static let synDropped: UInt16 = 3

  public static let absX: UInt16 = 0x00
  public static let absY: UInt16 = 0x01
  public static let absMTSlot: UInt16 = 0x2f
  public static let absMTPositionX: UInt16 = 0x35
  public static let absMTPositionY: UInt16 = 0x36
  public static let absMTTrackingID: UInt16 = 0x39

  public static let buttonLeft: UInt16 = 0x110
  public static let buttonTouch: UInt16 = 0x14a

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
