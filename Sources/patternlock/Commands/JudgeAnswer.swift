import PatternCore

/// The one JSON line `judge` answers its client with: a verdict
/// (`{"result":"wrong","failures":2,"tries_left":3}`) or a refusal to judge
/// (`{"result":"not-judged","reason":"..."}`). Never the dots.
///
/// Verdicts carry `check`'s keys (`result`, `retry_in_s`, `failures`) and what a lock
/// client shows beside them: `tries_left` before the next lockout after a wrong
/// pattern, and `until_reset` during a lockout only an administrator ends.
struct JudgeAnswer {
  let result: String
  let reason: String?
  private let decision: UnlockDecision?
  private let triesLeft: Int?

  init(_ decision: UnlockDecision, table: ThrottleTable) {
    result = decision.result.name
    reason = nil
    self.decision = decision
    triesLeft =
      decision.result == .wrong ? decision.failures.flatMap { table.triesBeforeLockout(afterFailures: $0) } : nil
  }

  /// Nothing was judged: `not-judged` (the attempt could not be counted first, or the
  /// TPM gave no verdict: ask again), `bad-request` (no pattern line, or a malformed
  /// one: nothing was counted), `not-enrolled`, or `error`.
  init(refusal status: UnlockExitStatus, reason: String) {
    switch status {
    case .notRecorded: result = "not-judged"
    case .badInput: result = "bad-request"
    case .notEnrolled: result = "not-enrolled"
    default: result = "error"
    }
    self.reason = reason
    decision = nil
    triesLeft = nil
  }

  var jsonLine: String {
    var line = JSONObjectWriter()
    line.add("result", string: result)
    if let decision {
      if let retry = decision.retryInSeconds { line.add("retry_in_s", Int(retry)) }
      if let failures = decision.failures { line.add("failures", failures) }
      if let triesLeft { line.add("tries_left", triesLeft) }
      if decision.isPermanentlyLocked { line.add("until_reset", raw: "true") }
    }
    if let reason { line.add("reason", string: reason) }
    return line.json
  }
}
