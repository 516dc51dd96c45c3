import PatternCore

extension LockScreenController {
  /// Everything the caller decided about a finished pattern, applied with
  /// `apply(_:for:at:)`.
  ///
  /// It lives here, beside the controller, and not in the executable, because the
  /// live loop (`run`) and the recorded one (`RecordedPlayback`, behind `replay`) must
  /// apply a decision in exactly the same way for a replay to show what the device
  /// shows: verdict first, then the lockout that starts once it has had its time.
  public struct Judgement: Sendable, Equatable {
    /// What the screen says about the pattern.
    public var verdict: Verdict
    /// A lockout that starts once the verdict has been shown.
    public var lockout: Lockout
    /// Set when the attempt could not be recorded: input is refused ("Storage error")
    /// until a write succeeds, tried again from this time.
    public var storageRetryAt: UInt64?
    /// Whether the pattern unlocks: the lock ends once the verdict has been shown.
    public var unlocks: Bool
    /// The prompt once the verdict has been shown, when it changes (enrollment's
    /// "Draw it again to confirm").
    public var nextPrompt: PromptText?
    /// Set when the judge answers later (it asked another process): the screen shows
    /// the pattern as "Checking…" meanwhile, and the verdict comes from
    /// `PatternJudge.takeAnswer` by this time at the latest.
    public var answerDue: UInt64?

    /// The judge asked another process and answers by `due` (`answerDue`).
    public static func pending(answerBy due: UInt64) -> Judgement {
      var judgement = Judgement(verdict: .neutral(.checking))
      judgement.answerDue = due
      return judgement
    }

    public init(
      verdict: Verdict, lockout: Lockout = .none, storageRetryAt: UInt64? = nil, unlocks: Bool = false, nextPrompt: PromptText? = nil
    ) {
      self.verdict = verdict
      self.lockout = lockout
      self.storageRetryAt = storageRetryAt
      self.unlocks = unlocks
      self.nextPrompt = nextPrompt
    }
  }
}
