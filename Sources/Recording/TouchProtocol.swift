/// How a device reports where and whether it is touched.
public enum TouchProtocol: Sendable {
  /// Multitouch protocol B: `ABS_MT_SLOT` picks a slot, `ABS_MT_TRACKING_ID` starts
  /// (>= 0) or ends (-1) its contact, `ABS_MT_POSITION_X/Y` move it.
  case multitouch
  /// One contact: `ABS_X/Y` and `BTN_TOUCH` (resistive panels such as the ADS7846).
  case singleTouch
  /// An absolute pointer: `ABS_X/Y` and `BTN_LEFT` (QEMU's virtio or USB tablet).
  case pointer

  /// The lower-case name for messages and docs.
  public var name: String {
    switch self {
    case .multitouch: return "multitouch"
    case .singleTouch: return "single-touch"
    case .pointer: return "pointer"
    }
  }
}
