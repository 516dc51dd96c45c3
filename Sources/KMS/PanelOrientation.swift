import PatternCore

/// The connector property `panel orientation`: how a built-in panel is mounted.
///
/// Tablets and some boards mount a portrait panel sideways; the kernel knows from a
/// quirk table or the device tree and says so in this property (values in
/// drivers/gpu/drm/drm_connector.c, `drm_panel_orientation_enum_list`). The view must
/// be turned the other way so that it looks upright.
public enum PanelOrientation: Sendable, Equatable {
  case normal
  case upsideDown
  /// The panel's left edge (x = 0) points up.
  case leftSideUp
  /// The panel's right edge points up.
  case rightSideUp

  /// The value for the property's enum name, or nil for one we do not know.
  public init?(propertyValue name: String) {
    switch name {
    case "Normal": self = .normal
    case "Upside Down": self = .upsideDown
    case "Left Side Up": self = .leftSideUp
    case "Right Side Up": self = .rightSideUp
    default: return nil
    }
  }

  /// How the view must be turned on the panel to look upright.
  ///
  /// With the left side up, the view's top must lie along the panel's x = 0 edge:
  /// `ViewTransform` maps view y = 0 to panel x = 0 for a 270° turn.
  public var rotation: Rotation {
    switch self {
    case .normal: return .none
    case .upsideDown: return .upsideDown
    case .leftSideUp: return .clockwise270
    case .rightSideUp: return .clockwise90
    }
  }
}
