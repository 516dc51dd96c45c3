/// How long attempts are refused: the one type from the throttle table (what a failure
/// count costs) through the unlock decision (what is left of it) and the judgement to
/// the screen (which counts it down from the moment it is applied) and the reports
/// (`check`'s `retry_in_s`, `status`, the hooks' environment).
public enum Lockout: Sendable, Equatable {
  /// Another attempt is allowed at once.
  case none
  /// No attempt for this many seconds of monotonic time.
  case seconds(Int64)
  /// No attempt until an administrator resets the counter.
  case permanent

  /// The seconds of a timed lockout (never negative); nil for none and permanent.
  public var seconds: Int64? {
    if case .seconds(let n) = self { return max(n, 0) }
    return nil
  }

  /// The monotonic microsecond a timed lockout applied at `now` ends.
  public func end(from now: UInt64) -> UInt64? { seconds.map { now + UInt64($0) * 1_000_000 } }
}
