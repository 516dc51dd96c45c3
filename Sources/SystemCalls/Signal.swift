import CShim

/// A signal number, such as the one that ended a child (`TerminationStatus`).
public struct Signal: RawRepresentable, Hashable, Sendable {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// SIGINT.
  public static let interrupt = Signal(rawValue: Int32(PL_SIGINT))
  /// SIGTERM.
  public static let terminate = Signal(rawValue: Int32(PL_SIGTERM))
  /// SIGUSR1.
  public static let user1 = Signal(rawValue: Int32(PL_SIGUSR1))
  /// SIGUSR2.
  public static let user2 = Signal(rawValue: Int32(PL_SIGUSR2))
}
