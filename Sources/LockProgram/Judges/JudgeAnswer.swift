import CommandKit
import PatternCore
import Vault

/// The judge's wire format: the one JSON line `patternlock judge` answers the lock that
/// asked, a verdict (`{"result":"wrong","failures":2,"tries_left":3}`) or a refusal to
/// judge (`{"result":"not-judged","reason":"..."}`), never the dots. Both ends use this
/// type, the writer and the reader side by side, so they cannot spell a key apart.
///
/// Verdicts carry `check`'s keys (`result`, `retry_in_s`, `failures`) and what a lock
/// shows beside them: `tries_left` before the next lockout after a wrong pattern, and
/// `until_reset` during a lockout only an administrator ends.
package struct JudgeAnswer: Equatable {
  package enum Result: Equatable, CaseIterable {
    case unlocked, wrong, tooShort, lockedOut
    /// Nothing was decided: the attempt could not be counted first, or the TPM gave
    /// no verdict (ask again).
    case notJudged
    /// No pattern line, or a malformed one: nothing was counted.
    case badRequest
    case notEnrolled
    case error

    package var name: String {
      switch self {
      case .unlocked: return "unlocked"
      case .wrong: return "wrong"
      case .tooShort: return "too-short"
      case .lockedOut: return "locked-out"
      case .notJudged: return "not-judged"
      case .badRequest: return "bad-request"
      case .notEnrolled: return "not-enrolled"
      case .error: return "error"
      }
    }

    package init?(name: String) {
      guard let result = Result.allCases.first(where: { $0.name == name }) else { return nil }
      self = result
    }
  }

  package var result: Result
  package var retryInSeconds: Int64?
  package var failures: Int?
  package var triesLeft: Int?
  package var untilReset = false
  package var reason: String?

  /// The longest answer read: a refusal's reason is one line of the vault's messages.
  package static let maximumBytes = 4096

  package init(
    result: Result, retryInSeconds: Int64? = nil, failures: Int? = nil, triesLeft: Int? = nil, untilReset: Bool = false,
    reason: String? = nil
  ) {
    self.result = result
    self.retryInSeconds = retryInSeconds
    self.failures = failures
    self.triesLeft = triesLeft
    self.untilReset = untilReset
    self.reason = reason
  }

  /// The answer for a judgement.
  package init(_ judged: JudgedAttempt) {
    let decision = judged.decision
    let result: Result
    switch decision.result {
    case .unlocked: result = .unlocked
    case .wrong: result = .wrong
    case .tooShort: result = .tooShort
    case .lockedOut: result = .lockedOut
    }
    self.init(
      result: result, retryInSeconds: decision.retryInSeconds, failures: decision.failures, triesLeft: judged.triesLeft,
      untilReset: decision.isPermanentlyLocked)
  }

  /// Nothing was judged, for the reason the exit status gives.
  package init(refusal status: UnlockExitStatus, reason: String) {
    switch status {
    case .notRecorded: self.init(result: .notJudged, reason: reason)
    case .badInput: self.init(result: .badRequest, reason: reason)
    case .notEnrolled: self.init(result: .notEnrolled, reason: reason)
    default: self.init(result: .error, reason: reason)
    }
  }

  /// The lockout running after the verdict.
  package var lockout: Lockout { untilReset ? .permanent : retryInSeconds.map { .seconds($0) } ?? .none }

  package var jsonLine: String {
    var line = JSONObjectWriter()
    line.add("result", string: result.name)
    if let retryInSeconds { line.add("retry_in_s", Int(retryInSeconds)) }
    if let failures { line.add("failures", failures) }
    if let triesLeft { line.add("tries_left", triesLeft) }
    if untilReset { line.add("until_reset", raw: "true") }
    if let reason { line.add("reason", string: reason) }
    return line.json
  }

  /// The answer in `line` (one line, its newline optional), or nil for anything that
  /// is not one: an unknown result or key, a value of the wrong kind. A lock that
  /// cannot read its answer does not unlock.
  package static func parse(_ line: [UInt8]) -> JudgeAnswer? {
    var bytes = line[...]
    if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
    guard let fields = FlatJSON.object(Substring(String(decoding: bytes, as: UTF8.self))),
      let name = fields["result"], let result = Result(name: name)
    else { return nil }
    var answer = JudgeAnswer(result: result)
    for (key, value) in fields {
      switch key {
      case "result": break
      case "retry_in_s":
        guard let seconds = Int64(value), seconds >= 0 else { return nil }
        answer.retryInSeconds = seconds
      case "failures":
        guard let failures = Int(value), failures >= 0 else { return nil }
        answer.failures = failures
      case "tries_left":
        guard let left = Int(value), left >= 0 else { return nil }
        answer.triesLeft = left
      case "until_reset":
        guard value == "true" else { return nil }
        answer.untilReset = true
      case "reason": answer.reason = value
      default: return nil
      }
    }
    return answer
  }
}
