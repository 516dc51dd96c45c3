/// How long a user must wait after each failed attempt, and when waiting ends for good.
///
/// A value type so that the system configuration (parsed elsewhere) can build one and
/// tests can use small ones. The default, `android`, is AOSP's table exactly (the
/// `TIMEOUT_TABLE` of `SoftwareRateLimiter` in frameworks/base, services/core/java/com/
/// android/server/locksettings/, Android 16): no delay for the first 4 failures, then
/// 1 min, 5 min, 15 min, 30 min, 90 min, 4 h, 12 h, 36 h, 4 d, 13 d, 41 d, 123 d, 365 d,
/// 3 years and 9 years for failures 5 to 19, and from failure 20 on no attempt at all
/// (Android: "no more guesses"; here until an administrator runs `patternlock
/// reset-attempts`). Years are 365 days, as there.
///
/// Alternatives rejected: a formula (`base * 2^n`) cannot express the irregular steps;
/// wall-clock deadlines in the table would make a clock jump shorten a lockout. The
/// table holds durations only; `UnlockPolicy` measures them on the monotonic clock.
public struct ThrottleTable: Sendable, Equatable {
  /// `delaysSeconds[n - 1]` is the wait after failure `n`; failures past the end of
  /// the list (but before `permanentAfter`) wait as long as the last entry.
  public let delaysSeconds: [Int64]
  /// The failure count from which no attempt is allowed until a reset.
  public let permanentAfter: Int

  /// A table, or nil when it makes no sense: a negative delay, a delay shorter than
  /// the one before it (a later failure must never be cheaper), or `permanentAfter`
  /// below 1.
  ///
  /// - Parameters:
  ///   - delaysSeconds: the wait after failure 1, 2, 3... in seconds.
  ///   - permanentAfter: the failure count that locks until `reset-attempts`.
  public init?(delaysSeconds: [Int64], permanentAfter: Int) {
    guard permanentAfter >= 1 else { return nil }
    var previous: Int64 = 0
    for delay in delaysSeconds {
      guard delay >= previous else { return nil }
      previous = delay
    }
    self.delaysSeconds = delaysSeconds
    self.permanentAfter = permanentAfter
  }

  /// Android's table, as described on the type: the default.
  public static let android: ThrottleTable = {
    let minute: Int64 = 60
    let hour = 60 * minute
    let day = 24 * hour
    let delays: [Int64] = [
      0, 0, 0, 0, 1 * minute, 5 * minute, 15 * minute, 30 * minute, 90 * minute,
      4 * hour, 12 * hour, 36 * hour, 4 * day, 13 * day, 41 * day, 123 * day, 365 * day,
      3 * 365 * day, 9 * 365 * day,
    ]
    return ThrottleTable(delaysSeconds: delays, permanentAfter: 20)!
  }()

  /// The lockout that starts when the failure count reaches `failures`.
  public func lockout(afterFailures failures: Int) -> Lockout {
    if failures >= permanentAfter { return .permanent }
    guard failures >= 1, !delaysSeconds.isEmpty else { return .none }
    let delay = delaysSeconds[min(failures, delaysSeconds.count) - 1]
    return delay > 0 ? .seconds(delay) : .none
  }

  /// How many more wrong patterns are allowed after `failures` before the next
  /// lockout starts, or nil when the count `failures` itself started one. Bounded: a
  /// table with no lockout within 1000 more failures says 1000.
  public func triesBeforeLockout(afterFailures failures: Int) -> Int? {
    guard lockout(afterFailures: failures) == .none else { return nil }
    var next = failures + 1
    while lockout(afterFailures: next) == .none && next < failures + 1000 { next += 1 }
    return next - failures
  }
}
