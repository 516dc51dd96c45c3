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
  /// The lockout running after this attempt (also on the wrong attempt that started
  /// it): what is left of it.
  public var lockout: Lockout
  /// The failure count after this attempt, only when this attempt was counted.
  public var failures: Int?

  public init(result: Result, lockout: Lockout = .none, failures: Int? = nil) {
    self.result = result
    self.lockout = lockout
    self.failures = failures
  }

  /// Seconds until the next attempt is allowed, when a timed lockout is running; nil
  /// when none is, or when it is permanent.
  public var retryInSeconds: Int64? { lockout.seconds }
  /// Whether no attempt is allowed until `reset-attempts`.
  public var isPermanentlyLocked: Bool { lockout == .permanent }

  /// One JSON object: `{"result":"wrong","retry_in_s":60,"failures":5}`, keys in that
  /// order, absent keys left out. Never the dots: a judged pattern is a guess at a
  /// real secret, and a log or a terminal must not keep it.
  public var jsonLine: String { jsonFields.json }

  /// The line's fields, for a line that adds its own after them.
  public var jsonFields: JSONObjectWriter {
    var line = JSONObjectWriter()
    line.add("result", string: result.name)
    if let retryInSeconds { line.add("retry_in_s", Int(retryInSeconds)) }
    if let failures { line.add("failures", failures) }
    return line
  }
}
