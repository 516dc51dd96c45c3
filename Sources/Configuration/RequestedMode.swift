/// A display mode asked for by size and, optionally, refresh rate (`mode = 800x480@60`);
/// KMS matches it against the connector's modes.
public struct RequestedMode: Equatable, Sendable {
  public let width: Int
  public let height: Int
  /// The vertical refresh in Hz, or nil for any.
  public let refresh: Int?

  public init(width: Int, height: Int, refresh: Int? = nil) {
    self.width = width
    self.height = height
    self.refresh = refresh
  }
}
