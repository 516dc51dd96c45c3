import CommandKit
import PatternCore
import Scene

/// What the lock screen shows for a verdict: the one place that maps a judgement to
/// the prompt, the lockout and whether it unlocks, whether the vault was judged in this
/// process (`VaultGate`) or by the judge over its socket (`SocketJudge`).
extension JudgeAnswer {
  /// The tries left are shown only when this few remain before a lockout: earlier the
  /// count is noise beside "Wrong pattern".
  package static let triesLeftShownFrom = 3

  package func judgement(minimumDots: Int) -> LockScreenController.Judgement {
    switch result {
    case .unlocked:
      return LockScreenController.Judgement(verdict: .accepted(.unlocked), unlocks: true)
    case .wrong:
      guard let left = triesLeft, left <= JudgeAnswer.triesLeftShownFrom else {
        return LockScreenController.Judgement(verdict: .rejected(.wrongPattern), lockout: lockout)
      }
      return LockScreenController.Judgement(verdict: .rejected(.wrongPattern(triesLeft: left)), lockout: lockout)
    case .tooShort:
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)), lockout: lockout)
    case .lockedOut:
      return LockScreenController.Judgement(
        verdict: .rejected(untilReset ? .lockedUntilReset : .tooManyTries), lockout: lockout)
    case .notJudged, .badRequest, .notEnrolled, .error:
      // Nothing was decided.
      if let reason { Console.error("the judge did not judge the pattern (\(result.name)): \(reason)") }
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
  }
}
