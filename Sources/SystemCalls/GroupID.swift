/// A group ID (gid).
public struct GroupID: RawRepresentable, Hashable, Sendable {
  public var rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
}
