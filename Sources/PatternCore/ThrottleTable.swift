/// How long a user must wait after each failed attempt, and when waiting ends for good.
///
/// A value type so that the configuration file (parsed elsewhere) can build one and
/// tests can use small ones. The default, `android`, follows Android's Gatekeeper:
/// no delay for the first 4 failures, then 1 min, 5 min, 15 min, 30 min, 90 min for
/// failures 5 to 9, then tripling from 4 hours for failures 10 to 19 (so failure 17
/// waits about a year and failure 19 about nine: the issue asks for "years" there,
/// which plain doubling from 4 h, 85 days, does not reach), and from failure 20 on
/// no attempt at all until an administrator runs `patternlock reset-attempts`.
///
/// Alternatives rejected: a formula (`base * 2^n`) cannot express Android's irregular
/// first steps; wall-clock deadlines in the table would make a clock jump shorten a
/// lockout. The table holds durations only; `UnlockPolicy` measures them on the
/// monotonic clock.
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
    var delays: [Int64] = [0, 0, 0, 0, 60, 5 * 60, 15 * 60, 30 * 60, 90 * 60]
    var step: Int64 = 4 * 3600
    for _ in 10...19 {
      delays.append(step)
      step *= 3
    }
    return ThrottleTable(delaysSeconds: delays, permanentAfter: 20)!
  }()

  /// The lockout that starts when the failure count reaches `failures`.
  public func lockout(afterFailures failures: Int) -> Lockout {
    if failures >= permanentAfter { return .permanent }
    guard failures >= 1, !delaysSeconds.isEmpty else { return .none }
    let delay = delaysSeconds[min(failures, delaysSeconds.count) - 1]
    return delay > 0 ? .seconds(delay) : .none
  }
}

/// What a failure count costs the user.
public enum Lockout: Sendable, Equatable {
  /// Another attempt is allowed at once.
  case none
  /// No attempt for this many seconds of monotonic time.
  case seconds(Int64)
  /// No attempt until an administrator resets the counter.
  case permanent
}
