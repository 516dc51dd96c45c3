import PatternCore

/// The unattended timeout as the lock screen takes it: after `microseconds` without
/// input, `action` runs (`timeout-s`, `timeout-action`). Off unless both are set.
public struct UnattendedTimeout: Sendable, Equatable {
  public var microseconds: UInt64?
  public var action: TimeoutAction

  /// - Parameter seconds: 0 for never, as the setting writes it.
  public init(seconds: Int = 0, action: TimeoutAction = .none) {
    microseconds = seconds > 0 ? UInt64(seconds) * 1_000_000 : nil
    self.action = action
  }
}
