import PatternCore

/// One judgement as every judging caller makes it (the lock screen, `check`, `judge`),
/// so the steps around an attempt are written once: the attempt in Gatekeeper's order,
/// the journal told what it must know (an attempts file that cannot be trusted, once; a
/// count that could not be cleared after an unlock), and the result with who unlocked
/// and how many tries are left. Printing a result line and acting on it (hooks, the
/// door strike, events) are the caller's steps, not part of judging.
extension UnlockSession {
  /// Judges `dots` at `now`, telling `journal` what went wrong around the attempt.
  ///
  /// - Throws: what `attempt(_:at:)` throws: the pattern was then not judged.
  public mutating func judge(
    _ dots: DotSequence, at now: UnlockInstant, journal: (String) -> Void
  ) throws(VaultError) -> JudgedAttempt {
    let decision: UnlockDecision
    do throws(VaultError) {
      decision = try attempt(dots, at: now)
    } catch {
      reportDamage(to: journal)
      throw error
    }
    reportDamage(to: journal)
    if let failure = clearingFailure {
      journal(failure.message + "; the unlock stands, and the failure counted before it stays counted")
    }
    let failures = policy.record.failures
    // Also after a repeat, which is not counted again: the tries left are the same.
    let triesLeft = decision.result == .wrong ? policy.table.triesBeforeLockout(afterFailures: failures) : nil
    return JudgedAttempt(decision: decision, credential: unlockedCredential, failures: failures, triesLeft: triesLeft)
  }

  /// Tells `journal` that the attempts file cannot be trusted, once for each problem
  /// found (the session is locked until `reset-attempts` meanwhile).
  public mutating func reportDamage(to journal: (String) -> Void) {
    guard let problem = attemptsDamage, problem != reportedDamage else { return }
    reportedDamage = problem
    journal(
      "attempts file \(attemptsPath) cannot be trusted: \(problem); failing closed: locked until root runs 'patternlock reset-attempts'")
  }
}

/// What one judgement decided (`UnlockSession.judge`).
public struct JudgedAttempt: Sendable, Equatable {
  public let decision: UnlockDecision
  /// Who unlocked; nil unless it unlocked.
  public let credential: JudgedCredential?
  /// The failure count after the attempt, counted or not.
  public let failures: Int
  /// The tries left before the next lockout, after a wrong pattern; nil otherwise, or
  /// when no lockout comes.
  public let triesLeft: Int?

  public init(decision: UnlockDecision, credential: JudgedCredential? = nil, failures: Int = 0, triesLeft: Int? = nil) {
    self.decision = decision
    self.credential = credential
    self.failures = failures
    self.triesLeft = triesLeft
  }

  /// The result line `check` prints: the decision's (`UnlockDecision.jsonLine`) and,
  /// after an unlock, the credential's name (never its role: a duress unlock reads as
  /// any other to whoever sees the line).
  public var resultLine: String {
    var line = decision.jsonFields
    if let credential { line.add("credential", string: credential.name) }
    return line.json
  }
}
