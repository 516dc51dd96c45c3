/// How the picture is turned on the panel, clockwise, in quarter turns.
///
/// The lock screen is laid out and drawn in *view* coordinates (what the user sees
/// upright); the panel's scan-out buffer and its touch digitiser work in *panel*
/// coordinates. A rotation maps between the two, so a touch lands on the dot that is
/// drawn under it whatever way the panel is mounted.
public enum Rotation: Int, Sendable, CaseIterable {
  case none = 0
  case clockwise90 = 90
  case upsideDown = 180
  case clockwise270 = 270

  /// The rotation for a number of degrees, or nil unless it is 0, 90, 180 or 270.
  public init?(degrees: Int) { self.init(rawValue: degrees) }

  /// The degrees clockwise.
  public var degrees: Int { rawValue }

  /// Whether the view's width runs along the panel's height.
  public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }
}

/// Maps points between a panel of a given size and the upright view on it.
public struct ViewTransform: Hashable, Sendable {
  public let rotation: Rotation
  public let panelWidth: Int
  public let panelHeight: Int

  public init(rotation: Rotation, panelWidth: Int, panelHeight: Int) {
    self.rotation = rotation
    self.panelWidth = panelWidth
    self.panelHeight = panelHeight
  }

  /// The view's width in pixels.
  public var viewWidth: Int { rotation.swapsAxes ? panelHeight : panelWidth }
  /// The view's height in pixels.
  public var viewHeight: Int { rotation.swapsAxes ? panelWidth : panelHeight }

  /// The panel position of a view position (continuous coordinates: pixel edges).
  public func panelPoint(fromView p: Point) -> Point {
    let w = Fixed16(panelWidth), h = Fixed16(panelHeight)
    switch rotation {
    case .none: return p
    case .clockwise90: return Point(x: w - p.y, y: p.x)
    case .upsideDown: return Point(x: w - p.x, y: h - p.y)
    case .clockwise270: return Point(x: p.y, y: h - p.x)
    }
  }

  /// The view position of a panel position (continuous coordinates: pixel edges).
  public func viewPoint(fromPanel p: Point) -> Point {
    let w = Fixed16(panelWidth), h = Fixed16(panelHeight)
    switch rotation {
    case .none: return p
    case .clockwise90: return Point(x: p.y, y: w - p.x)
    case .upsideDown: return Point(x: w - p.x, y: h - p.y)
    case .clockwise270: return Point(x: h - p.y, y: p.x)
    }
  }
}
