/// A process ID, so that a pid is never mistaken for a descriptor or a status.
public struct ProcessID: RawRepresentable, Hashable, Sendable {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}
