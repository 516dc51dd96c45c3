/// A user ID (uid).
public struct UserID: RawRepresentable, Hashable, Sendable {
  public var rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// root, uid 0.
  public static let root = UserID(rawValue: 0)
}
