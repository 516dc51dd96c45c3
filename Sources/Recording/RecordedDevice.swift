/// One device from a recording's `devices:` list: its name and what it can report.
///
/// Only what replay needs is kept: the name and node for messages, the event codes
/// (`codes:`) and input properties (`properties:`) to tell a touchscreen from a
/// tablet, touchpad or mouse, and the axis ranges (`absinfo:`) to map positions onto
/// the panel.
public struct RecordedDevice: Sendable {
  /// The kernel's device name (`raspberrypi-ts`, `QEMU Virtio Tablet`).
  public var name: String
  /// The device node it was recorded from (`/dev/input/event3`).
  public var node: String
  /// The 1-based line where the device's entry starts (0 when made in memory).
  public var line: Int
  /// The device's place in `devices:`, 1 for the first (0 when made in memory); what
  /// `--device N` names.
  public var index: Int
  /// How many evdev rows (`SYN_REPORT` included) the device recorded.
  public var eventCount: Int
  /// Event codes by type, from `codes:`.
  public private(set) var codes: [UInt16: [UInt16]]
  /// Axis ranges by `ABS_*` code, from `absinfo:`.
  public private(set) var absinfo: [UInt16: AbsInfo]
  /// The `INPUT_PROP_*` numbers from `properties:` (1 is `INPUT_PROP_DIRECT`).
  public var properties: [UInt16]
  /// The line of each `absinfo:` entry, for messages.
  private var absinfoLines: [UInt16: Int]

  /// Makes a device description.
  ///
  /// - Parameters:
  ///   - name: the kernel's device name.
  ///   - node: the device node.
  ///   - line: where the description starts in its file, or 0.
  ///   - codes: event codes by event type.
  ///   - absinfo: axis ranges by axis code.
  ///   - properties: the input properties.
  public init(
    name: String = "", node: String = "", line: Int = 0,
    codes: [UInt16: [UInt16]] = [:], absinfo: [UInt16: AbsInfo] = [:], properties: [UInt16] = []
  ) {
    self.name = name
    self.node = node
    self.line = line
    self.index = 0
    self.eventCount = 0
    self.codes = codes
    self.absinfo = absinfo
    self.properties = properties
    self.absinfoLines = [:]
  }

  /// Records the codes of one event type.
  mutating func setCodes(_ list: [UInt16], forType type: UInt16) { codes[type] = list }

  /// Records one axis range and the line it came from.
  mutating func setAbsinfo(_ info: AbsInfo, forCode code: UInt16, line: Int) {
    absinfo[code] = info
    absinfoLines[code] = line
  }

  /// The line of an axis's `absinfo:` entry, or of the device when there is none.
  func line(ofAbsinfo code: UInt16) -> Int { absinfoLines[code] ?? line }

  /// Whether the device reports `code` of event `type`.
  ///
  /// An axis with an `absinfo:` entry counts as reported even when `codes:` leaves it
  /// out, so a missing entry is found whichever list is incomplete.
  public func supports(type: UInt16, code: UInt16) -> Bool {
    if codes[type]?.contains(code) == true { return true }
    return type == EvdevCode.eventAbs && absinfo[code] != nil
  }

  /// How the device reports contacts, or nil when it cannot drive a pattern lock.
  ///
  /// Multitouch protocol B (slots and tracking IDs) wins over the single-touch axes
  /// that such devices also emit for old clients; then `BTN_TOUCH` (a touchscreen)
  /// wins over `BTN_LEFT` (an absolute pointer such as a virtual tablet).
  public var touchProtocol: TouchProtocol? {
    let abs = EvdevCode.eventAbs
    if supports(type: abs, code: EvdevCode.absMTSlot), supports(type: abs, code: EvdevCode.absMTTrackingID),
      supports(type: abs, code: EvdevCode.absMTPositionX), supports(type: abs, code: EvdevCode.absMTPositionY)
    {
      return .multitouch
    }
    guard supports(type: abs, code: EvdevCode.absX), supports(type: abs, code: EvdevCode.absY) else { return nil }
    if supports(type: EvdevCode.eventKey, code: EvdevCode.buttonTouch) { return .singleTouch }
    if supports(type: EvdevCode.eventKey, code: EvdevCode.buttonLeft) { return .pointer }
    return nil
  }
}
