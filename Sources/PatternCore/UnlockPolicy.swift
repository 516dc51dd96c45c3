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
/// - A lockout still running when the policy is created (a restart of `run`, a `check`)
///   starts again in full at `startingAt`. So does one whose start was measured in
///   another boot (or an unknown one), because the wall clock may have jumped while the
///   device was off and there is no monotonic clock across boots.
/// - A record that another process changed (`adopt`) brings its lockout with it: one
///   started in this boot runs from its stored monotonic start, any other from the
///   moment this process first saw it. Every doubt costs the guesser.
///
/// Alternative rejected: storing the lockout's end as a wall-clock deadline; setting
/// the clock forward would then end it.
public struct UnlockPolicy: Sendable {
  /// How long a repeated wrong pattern stays free, in wall-clock seconds.
  public static let duplicateWindowSeconds: Int64 = 5 * 60

  public let table: ThrottleTable
  /// The state to persist; changed only by `recordCorrect`, `countFailure` and `rememberWrong`.
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
    switch table.lockout(afterFailures: record.failures) {
    case .none:
      lockoutStart = nil
    case .permanent:
      lockoutStart = now.monotonicMicroseconds
    case .seconds(let seconds):
      lockoutStart = UnlockPolicy.restartedStart(of: record, lasting: seconds, at: now)
    }
  }

  /// Where a lockout of `seconds` found in `record` at start-up begins: where it began,
  /// if it ended before now in this boot; otherwise now (restarted in full).
  private static func restartedStart(of record: AttemptRecord, lasting seconds: Int64, at now: UnlockInstant) -> UInt64 {
    if let stored = UnlockPolicy.storedStart(of: record, at: now), stored &+ UInt64(seconds) * 1_000_000 <= now.monotonicMicroseconds {
      return stored  // over before this process started: nothing to restart
    }
    return now.monotonicMicroseconds
  }

  /// Takes over the record as it is on disk now (read under the state lock), which
  /// another process may have changed since this policy last saw it.
  public mutating func adopt(_ current: AttemptRecord, at now: UnlockInstant) {
    guard current != record else { return }
    record = current
    switch table.lockout(afterFailures: current.failures) {
    case .none:
      lockoutStart = nil
    case .permanent, .seconds:
      lockoutStart = UnlockPolicy.storedStart(of: current, at: now) ?? now.monotonicMicroseconds
    }
  }

  /// The lockout `record` imposes as stored, for reports (`patternlock status`): one
  /// measured in `now`'s boot runs from its stored start; any other is whole (the next
  /// process to judge starts it in full). Nil when none is running.
  public static func storedLockout(of record: AttemptRecord, table: ThrottleTable, at now: UnlockInstant) -> UnlockDecision? {
    var policy = UnlockPolicy(table: table, record: .clean, startingAt: now)
    policy.record = record
    switch table.lockout(afterFailures: record.failures) {
    case .none: policy.lockoutStart = nil
    case .permanent, .seconds: policy.lockoutStart = storedStart(of: record, at: now) ?? now.monotonicMicroseconds
    }
    return policy.gate(at: now)
  }

  /// The monotonic start of the record's last failure, when it was taken in `now`'s boot.
  private static func storedStart(of record: AttemptRecord, at now: UnlockInstant) -> UInt64? {
    guard let stamp = record.lastFailureMonotonic, let boot = now.boot, stamp.boot == boot else { return nil }
    return stamp.microseconds
  }

  /// Whether `fingerprint` repeats one of the remembered wrong patterns entered less
  /// than `duplicateWindowSeconds` ago: such an attempt is wrong and is not counted.
  public func isRecentRepeat(_ fingerprint: PatternFingerprint, at now: UnlockInstant) -> Bool {
    for entry in record.recentWrong where entry.fingerprint == fingerprint {
      let age = now.wallSeconds &- entry.wallSeconds
      if age >= 0 && age < UnlockPolicy.duplicateWindowSeconds { return true }
    }
    return false
  }

  /// Whether an attempt may be made now.
  ///
  /// - Returns: nil when it may; otherwise the `locked-out` decision to show.
  public func gate(at now: UnlockInstant) -> UnlockDecision? {
    switch table.lockout(afterFailures: record.failures) {
    case .none:
      return nil
    case .permanent:
      return UnlockDecision(result: .lockedOut, lockout: .permanent)
    case .seconds(let seconds):
      guard let remaining = remainingSeconds(of: seconds, at: now) else { return nil }
      return UnlockDecision(result: .lockedOut, lockout: .seconds(remaining))
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

  /// Counts a failure before the pattern is verified (Gatekeeper's order): the count,
  /// its times and the lockout it starts, but not the pattern's fingerprint, which is
  /// remembered only once the pattern is known to be wrong (a right pattern remembered
  /// as wrong would be refused as a "repeat" after a crash).
  ///
  /// - Returns: the decision to show if the pattern turns out wrong.
  public mutating func countFailure(at now: UnlockInstant) -> UnlockDecision {
    // Counting is capped far above any table so the stored number never overflows.
    record.failures = min(record.failures + 1, 999_999)
    record.lastFailureWallSeconds = now.wallSeconds
    record.lastFailureMonotonic = now.boot.map { AttemptRecord.MonotonicStamp(boot: $0, microseconds: now.monotonicMicroseconds) }
    switch table.lockout(afterFailures: record.failures) {
    case .none:
      lockoutStart = nil
      return UnlockDecision(result: .wrong, failures: record.failures)
    case .permanent:
      lockoutStart = now.monotonicMicroseconds
      return UnlockDecision(result: .wrong, lockout: .permanent, failures: record.failures)
    case .seconds(let seconds):
      lockoutStart = now.monotonicMicroseconds
      return UnlockDecision(result: .wrong, lockout: .seconds(seconds), failures: record.failures)
    }
  }

  /// Remembers a pattern known to be wrong, for the 5-minute repeat rule (the newest
  /// `AttemptRecord.recentCapacity` are kept).
  public mutating func rememberWrong(_ fingerprint: PatternFingerprint, at now: UnlockInstant) {
    var recent = record.recentWrong.filter { $0.fingerprint != fingerprint }
    recent.append(AttemptRecord.RecentWrong(fingerprint: fingerprint, wallSeconds: now.wallSeconds))
    if recent.count > AttemptRecord.recentCapacity { recent.removeFirst(recent.count - AttemptRecord.recentCapacity) }
    record.recentWrong = recent
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
