/// What `--mode WxH[@Hz]` asks for.
///
/// Parsed by the settings table (Configuration, `mode = 800x480@60`), matched by KMS against the connector's modes in `DisplayMode.choose`; a
/// refresh rate that is left out matches the first mode of that size (the kernel
/// lists the preferred and higher rates first).
public struct ModeRequest: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// The vertical refresh in Hz, or nil for any.
  public let refresh: Int?

  public init(width: Int, height: Int, refresh: Int? = nil) {
    self.width = width
    self.height = height
    self.refresh = refresh
  }

  /// The request as the user writes it.
  public var text: String {
    if let refresh { return "\(width)x\(height)@\(refresh)" }
    return "\(width)x\(height)"
  }
}
