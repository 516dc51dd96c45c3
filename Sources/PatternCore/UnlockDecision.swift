/// The answer to one attempt, as shown on screen and printed by `check` and `replay`.
public struct UnlockDecision: Sendable, Equatable {
  /// What happened.
  public enum Result: Sendable, Equatable {
    case unlocked
    case wrong
    case tooShort
    case lockedOut

    /// The JSON name: `unlocked`, `wrong`, `too-short`, `locked-out`.
    public var name: String {
      switch self {
      case .unlocked: return "unlocked"
      case .wrong: return "wrong"
      case .tooShort: return "too-short"
      case .lockedOut: return "locked-out"
      }
    }
  }

  public var result: Result
  /// Seconds until the next attempt is allowed, when a timed lockout is running (also
  /// on the wrong attempt that started it); nil when none is, or when it is permanent.
  public var retryInSeconds: Int64?
  /// The failure count after this attempt, only when this attempt was counted.
  public var failures: Int?
  /// Whether no attempt is allowed until `reset-attempts`.
  public var isPermanentlyLocked: Bool

  public init(result: Result, retryInSeconds: Int64? = nil, failures: Int? = nil, isPermanentlyLocked: Bool = false) {
    self.result = result
    self.retryInSeconds = retryInSeconds
    self.failures = failures
    self.isPermanentlyLocked = isPermanentlyLocked
  }

  /// One JSON object: `{"result":"wrong","retry_in_s":60,"failures":5}`, keys in that
  /// order, absent keys left out. Never the dots: a judged pattern is a guess at a
  /// real secret, and a log or a terminal must not keep it.
  public var jsonLine: String {
    var line = JSONObjectWriter()
    line.add("result", string: result.name)
    if let retryInSeconds { line.add("retry_in_s", Int(retryInSeconds)) }
    if let failures { line.add("failures", failures) }
    return line.json
  }
}
