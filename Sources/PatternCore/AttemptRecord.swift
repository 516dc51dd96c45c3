/// What must survive a restart about failed attempts: the count, when the last one
/// happened, and fingerprints of the last few wrong patterns.
///
/// Vault persists this before a pattern is verified (Gatekeeper's order). Wall-clock
/// times are seconds since 1970, for the log and for the "same wrong pattern within 5
/// minutes" rule only; lockout lengths are measured on the monotonic clock by
/// `UnlockPolicy`, from `lastFailureMonotonic` when it was taken in the current boot.
public struct AttemptRecord: Sendable, Equatable {
  /// How many recent wrong patterns are remembered (Android remembers 5).
  public static let recentCapacity = 5

  /// One remembered wrong pattern.
  public struct RecentWrong: Sendable, Equatable {
    public var fingerprint: PatternFingerprint
    /// When it was entered, wall-clock seconds.
    public var wallSeconds: Int64

    public init(fingerprint: PatternFingerprint, wallSeconds: Int64) {
      self.fingerprint = fingerprint
      self.wallSeconds = wallSeconds
    }
  }

  /// Failed attempts since the last success or reset.
  public var failures: Int
  /// Wall-clock seconds of the last counted failure; 0 when there has been none.
  public var lastFailureWallSeconds: Int64
  /// At most `recentCapacity` wrong patterns, oldest first.
  public var recentWrong: [RecentWrong]
  /// When the last counted failure happened on the monotonic clock, and in which boot;
  /// nil when there was none or the boot was unknown. Lets every process of one boot
  /// agree on when a lockout began.
  public var lastFailureMonotonic: MonotonicStamp?

  /// A point on one boot's CLOCK_MONOTONIC.
  public struct MonotonicStamp: Sendable, Equatable {
    public var boot: BootIdentity
    public var microseconds: UInt64

    public init(boot: BootIdentity, microseconds: UInt64) {
      self.boot = boot
      self.microseconds = microseconds
    }
  }

  public init(failures: Int, lastFailureWallSeconds: Int64, recentWrong: [RecentWrong], lastFailureMonotonic: MonotonicStamp? = nil) {
    self.failures = failures
    self.lastFailureWallSeconds = lastFailureWallSeconds
    self.recentWrong = recentWrong
    self.lastFailureMonotonic = lastFailureMonotonic
  }

  /// No failures: after enrolment, a success or `reset-attempts`.
  public static let clean = AttemptRecord(failures: 0, lastFailureWallSeconds: 0, recentWrong: [])
}
