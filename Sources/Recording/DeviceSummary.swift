/// One device of a recording as messages describe it: its place, name, kind and how
/// much it recorded, such as `2 'EP0430M09' (touchscreen, 735 events)`.
///
/// Kept for the first few devices of a file (`maximumListed`) so that a refusal can
/// say what the file holds without the parser keeping every device's description.
public struct DeviceSummary: Sendable, Equatable {
  /// How many devices a message lists; the rest are counted ("and 3 more").
  public static let maximumListed = 8

  /// The device's place in `devices:`, 1 for the first.
  public var index: Int
  /// The kernel's device name.
  public var name: String
  public var kind: DeviceKind
  /// How many evdev rows it recorded.
  public var eventCount: Int
  /// Whether it can report a position and contact (`RecordedDevice.touchProtocol`).
  public var reportsContact: Bool

  /// Summarises a device.
  ///
  /// - Parameter device: the device, with its index and event count set.
  public init(_ device: RecordedDevice) {
    index = device.index
    name = device.name
    kind = device.kind
    eventCount = device.eventCount
    reportsContact = device.touchProtocol != nil
  }

  /// `2 'EP0430M09' (touchscreen, 735 events)`, with the kind's note when it has one:
  /// `1 'PixArt USB Mouse' (mouse: relative motion only, no position on the screen; 24 events)`.
  public var description: String {
    let what = kind.note.map { "\(kind.name): \($0);" } ?? "\(kind.name),"
    return "\(index) '\(RecordingError.clip(name))' (\(what) \(RecordingError.count(eventCount, "event")))"
  }

  /// Why the device cannot be replayed, or nil when it can.
  public var reasonItCannotReplay: String? {
    guard !reportsContact else { return nil }
    return kind.note ?? "it has a position but no way to say it is touched (no BTN_TOUCH, BTN_LEFT or multitouch slots)"
  }

  /// The summaries joined for one line, with how many more the file has.
  static func list(_ devices: [DeviceSummary], total: Int) -> String {
    var text = ""
    for device in devices {
      if !text.isEmpty { text += ", " }
      text += device.description
    }
    if total > devices.count { text += ", and \(total - devices.count) more" }
    return text
  }
}
