/// A connector's name as the kernel prints it: its type's name, a dash and the type's
/// index (`HDMI-A-1`, `DSI-1`, `Virtual-1`).
///
/// The type names are the kernel's `drm_connector_enum_list`
/// (drivers/gpu/drm/drm_connector.c), which is also what sysfs, `modetest` and
/// Weston show, so `--output` takes the name users already see.
public struct ConnectorName: Hashable, Sendable {
  /// `DRM_MODE_CONNECTOR_*`.
  public let type: UInt32
  /// The 1-based index among connectors of the same type.
  public let typeIndex: UInt32

  public init(type: UInt32, typeIndex: UInt32) {
    self.type = type
    self.typeIndex = typeIndex
  }

  /// The kernel's names by `DRM_MODE_CONNECTOR_*` value (0 ... 20).
  static let typeNames = [
    "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component",
    "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
  ]

  /// The name, such as `HDMI-A-1`.
  public var text: String {
    let typeName = Int(type) < ConnectorName.typeNames.count ? ConnectorName.typeNames[Int(type)] : "Unknown"
    return "\(typeName)-\(typeIndex)"
  }

  /// Whether `name` names this connector; case is ignored (`hdmi-a-1` works).
  public func matches(_ name: String) -> Bool {
    let a = text.utf8, b = name.utf8
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) where ConnectorName.lowercased(x) != ConnectorName.lowercased(y) { return false }
    return true
  }

  private static func lowercased(_ c: UInt8) -> UInt8 {
    c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c
  }
}
