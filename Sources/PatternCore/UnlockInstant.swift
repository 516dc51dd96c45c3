/// "Now" for `UnlockPolicy`, passed in so the policy does no I/O and a replay can drive
/// it from a recording's timestamps.
public struct UnlockInstant: Sendable, Equatable {
  /// A clock that never jumps (CLOCK_MONOTONIC live, event times in a replay):
  /// lockouts are measured on it.
  public var monotonicMicroseconds: UInt64
  /// Seconds since 1970 (may jump): stored in the attempts file.
  public var wallSeconds: Int64
  /// The boot `monotonicMicroseconds` belongs to; nil when unknown (a replay's clock, or
  /// no boot id readable), and then no stored monotonic time is comparable with it.
  public var boot: BootIdentity?

  public init(monotonicMicroseconds: UInt64, wallSeconds: Int64, boot: BootIdentity? = nil) {
    self.monotonicMicroseconds = monotonicMicroseconds
    self.wallSeconds = wallSeconds
    self.boot = boot
  }
}
