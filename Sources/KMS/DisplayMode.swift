import PatternCore
/// One mode a connector offers, reduced to what choosing one needs.
///
/// The kernel's full timing (`drmModeModeInfo`) stays with the C-facing code; this is
/// the part tests and messages use.
public struct DisplayMode: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// Vertical refresh in Hz.
  public let refresh: Int
  /// Whether the connector marks it `DRM_MODE_TYPE_PREFERRED` (the panel's native mode).
  public let isPreferred: Bool

  public init(width: Int, height: Int, refresh: Int, isPreferred: Bool) {
    self.width = width
    self.height = height
    self.refresh = refresh
    self.isPreferred = isPreferred
  }

  /// `WxH@Hz`.
  public var text: String { "\(width)x\(height)@\(refresh)" }

  /// The index of the mode to use: the first that matches `request`, or without one
  /// the preferred mode, or the first (the kernel sorts modes best first).
  ///
  /// - Returns: nil when `modes` is empty or nothing matches the request.
  public static func choose(from modes: [DisplayMode], request: ModeRequest?) -> Int? {
    guard let request else {
      if let preferred = modes.firstIndex(where: { $0.isPreferred }) { return preferred }
      return modes.isEmpty ? nil : 0
    }
    return modes.firstIndex { mode in
      mode.width == request.width && mode.height == request.height && (request.refresh.map { $0 == mode.refresh } ?? true)
    }
  }
}
