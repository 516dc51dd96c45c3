import PatternCore

/// Every prompt the lock screen shows, by the name the code uses. The words themselves
/// are in the message catalogue, po/patternlock.pot (English) and po/LANG.po, compiled
/// into `Catalogue/` (see docs/translations.md); each is a `PromptText` naming its
/// message, so even the countdown allocates nothing.
extension PromptText {
  // Waiting for a pattern.
  /// The idle prompt of the lock.
  public static let drawPattern = PromptText(.drawPattern)
  /// The idle prompt of an enrolment.
  public static let drawNewPattern = PromptText(.drawNewPattern)
  /// Enrolment: the first drawing was taken.
  public static let drawAgainToConfirm = PromptText(.drawAgainToConfirm)

  // The machine's power, asked by the timeout or the power button.
  public static let poweringOff = PromptText(.poweringOff)
  public static let restarting = PromptText(.restarting)

  /// What the screen says once `action` was asked for.
  public static func announcing(_ action: PowerAction) -> PromptText {
    switch action {
    case .poweroff: return poweringOff
    case .reboot: return restarting
    }
  }

  // Verdicts.
  public static let unlocked = PromptText(.unlocked)
  public static let wrongPattern = PromptText(.wrongPattern)
  /// `replay` and `run --pattern` without an expected pattern: neither right nor wrong.
  public static let patternEntered = PromptText(.patternEntered)
  public static let noMatchDrawNew = PromptText(.noMatchDrawNew)
  public static let patternSaved = PromptText(.patternSaved)
  public static let cannotSavePattern = PromptText(.cannotSavePattern)
  /// Enrolment: the pattern is among those people choose most (`[vault] blocklist`);
  /// the owner draws another.
  public static let commonPattern = PromptText(.commonPattern)

  /// Enrolment: "Saved: found within about 1000 guesses; the lock allows 20".
  public static func patternSaved(foundWithinGuesses guesses: Int, allowed: Int) -> PromptText {
    PromptText(.patternSavedWithin, guesses, allowed)
  }

  /// Enrolment: "Saved: more than 100000 guesses needed; the lock allows 20".
  public static func patternSaved(needingMoreThanGuesses guesses: Int, allowed: Int) -> PromptText {
    PromptText(.patternSavedBeyond, guesses, allowed)
  }
  /// A pattern drawn during a timed lockout.
  public static let tooManyTries = PromptText(.tooManyTries)
  /// Another process held the state lock past its bound: nothing was judged.
  public static let busyTryAgain = PromptText(.busyTryAgain)
  /// The pattern is with a judge in another process; its verdict comes next.
  public static let checking = PromptText(.checking)

  // Locked states.
  /// The permanent lockout (or a damaged attempts file).
  public static let lockedUntilReset = PromptText(.lockedUntilReset)
  /// The attempts could not be recorded, so none is judged.
  public static let storageError = PromptText(.storageError)
  /// The TPM that judges a TPM-bound pattern gave no verdict, so none is judged.
  public static let tpmError = PromptText(.tpmError)

  /// "Too short: join at least 4 dots".
  public static func tooShort(minimumDots: Int) -> PromptText {
    PromptText(.tooShort, minimumDots)
  }

  /// "Wrong pattern: 2 tries left", "Wrong pattern: 1 try left".
  public static func wrongPattern(triesLeft: Int) -> PromptText {
    PromptText(.wrongPatternTriesLeft, triesLeft)
  }

  /// From how many seconds left a countdown shows whole days.
  public static let secondsShownInDays: UInt64 = 2 * 86_400

  /// "Try again in 0:59", "Try again in 1:29:59", "Try again in 3 days".
  public static func tryAgain(in seconds: Int) -> PromptText {
    if seconds >= Int(secondsShownInDays) { return PromptText(.tryAgainInDays, seconds / 86_400) }
    if seconds >= 3600 { return PromptText(.tryAgainInHours, seconds / 3600, seconds % 3600 / 60, seconds % 60) }
    return PromptText(.tryAgainInMinutes, seconds / 60, seconds % 60)
  }
}
