/// Decides what an attempt costs: the throttle, the "same wrong pattern" rule and the
/// lockout clock. Pure: no I/O, no clock reads; the caller passes `UnlockInstant`s,
/// checks the secret itself, and persists `record` before showing the result.
///
/// Rules:
/// - While a lockout runs, no attempt is even checked (`gate`).
/// - Too-short patterns are never given to the policy (they do not count).
/// - A wrong pattern equal to one of the last 5 wrong ones entered at most 5 minutes
///   ago (wall clock) does not count again; Android treats it as an honest mistake.
///   A wall clock that jumped backwards makes the entry not match, so the attempt
///   counts: every doubt costs the guesser.
/// - A lockout pending when the policy is created (a restart, a reboot) starts again
///   in full at `startingAt`, because the wall clock may have jumped while the device
///   was off and there is no monotonic clock across boots.
///
/// Alternative rejected: storing the lockout's end as a wall-clock deadline; setting
/// the clock forward would then end it.
public struct UnlockPolicy: Sendable {
  /// How long a repeated wrong pattern stays free, in wall-clock seconds.
  public static let duplicateWindowSeconds: Int64 = 5 * 60

  public let table: ThrottleTable
  /// The state to persist; changed only by `recordCorrect` and `recordWrong`.
  public private(set) var record: AttemptRecord
  /// When the running lockout began on the monotonic clock, if one may be running.
  private var lockoutStart: UInt64?

  /// - Parameters:
  ///   - table: the throttle.
  ///   - record: the persisted state (a damaged file should arrive here as
  ///     `table.permanentAfter` failures: fail closed).
  ///   - now: the start of this run; a pending lockout restarts from here.
  public init(table: ThrottleTable, record: AttemptRecord, startingAt now: UnlockInstant) {
    self.table = table
    self.record = record
    lockoutStart = table.lockout(afterFailures: record.failures) == .none ? nil : now.monotonicMicroseconds
  }

  /// Whether an attempt may be made now.
  ///
  /// - Returns: nil when it may; otherwise the `locked-out` decision to show.
  public func gate(at now: UnlockInstant) -> UnlockDecision? {
    switch table.lockout(afterFailures: record.failures) {
    case .none:
      return nil
    case .permanent:
      return UnlockDecision(result: .lockedOut, isPermanentlyLocked: true)
    case .seconds(let seconds):
      guard let remaining = remainingSeconds(of: seconds, at: now) else { return nil }
      return UnlockDecision(result: .lockedOut, retryInSeconds: remaining)
    }
  }

  /// Records a correct pattern: the counter and the remembered wrong patterns go.
  ///
  /// - Returns: whether `record` changed (and so must be persisted).
  public mutating func recordCorrect() -> Bool {
    lockoutStart = nil
    guard record != .clean else { return false }
    record = .clean
    return true
  }

  /// Records a wrong pattern, unless it repeats a recent one.
  ///
  /// - Returns: the decision to show; `failures` is set exactly when the attempt
  ///   counted (and so `record` changed and must be persisted).
  public mutating func recordWrong(_ fingerprint: PatternFingerprint, at now: UnlockInstant) -> UnlockDecision {
    for entry in record.recentWrong where entry.fingerprint == fingerprint {
      let age = now.wallSeconds &- entry.wallSeconds
      if age >= 0 && age < UnlockPolicy.duplicateWindowSeconds {
        return UnlockDecision(result: .wrong)
      }
    }
    // Counting is capped far above any table so the stored number never overflows.
    record.failures = min(record.failures + 1, 999_999)
    record.lastFailureWallSeconds = now.wallSeconds
    var recent = record.recentWrong.filter { $0.fingerprint != fingerprint }
    recent.append(AttemptRecord.RecentWrong(fingerprint: fingerprint, wallSeconds: now.wallSeconds))
    if recent.count > AttemptRecord.recentCapacity { recent.removeFirst(recent.count - AttemptRecord.recentCapacity) }
    record.recentWrong = recent

    switch table.lockout(afterFailures: record.failures) {
    case .none:
      lockoutStart = nil
      return UnlockDecision(result: .wrong, failures: record.failures)
    case .permanent:
      lockoutStart = now.monotonicMicroseconds
      return UnlockDecision(result: .wrong, failures: record.failures, isPermanentlyLocked: true)
    case .seconds(let seconds):
      lockoutStart = now.monotonicMicroseconds
      return UnlockDecision(result: .wrong, retryInSeconds: seconds, failures: record.failures)
    }
  }

  /// Whole seconds left of a lockout of `seconds`, rounded up; nil once it is over.
  private func remainingSeconds(of seconds: Int64, at now: UnlockInstant) -> Int64? {
    guard let start = lockoutStart else { return nil }
    let length = UInt64(seconds) * 1_000_000
    // A monotonic clock never goes back; a replay's clock might (a new device in the
    // file). Time before the start counts as no time passed.
    let elapsed = now.monotonicMicroseconds >= start ? now.monotonicMicroseconds - start : 0
    guard elapsed < length else { return nil }
    return Int64((length - elapsed + 999_999) / 1_000_000)
  }
}
