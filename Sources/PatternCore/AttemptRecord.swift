/// What must survive a restart about failed attempts: the count, when the last one
/// happened, and fingerprints of the last few wrong patterns.
///
/// Vault persists this before a result is shown. Times are wall-clock seconds since
/// 1970, for the log and for the "same wrong pattern within 5 minutes" rule only;
/// lockout lengths are measured on the monotonic clock by `UnlockPolicy`.
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

  public init(failures: Int, lastFailureWallSeconds: Int64, recentWrong: [RecentWrong]) {
    self.failures = failures
    self.lastFailureWallSeconds = lastFailureWallSeconds
    self.recentWrong = recentWrong
  }

  /// No failures: after enrolment, a success or `reset-attempts`.
  public static let clean = AttemptRecord(failures: 0, lastFailureWallSeconds: 0, recentWrong: [])
}
