import PatternCore

/// Every word the lock screen shows, in one place, so that a translation (or a review
/// of the wording, or of its length in the text band) has one file to read. Each is a
/// `PromptText`: built inline, so even the countdown allocates nothing.
extension PromptText {
  // Waiting for a pattern.
  /// The idle prompt of the lock.
  public static let drawPattern = PromptText("Draw your unlock pattern")
  /// The idle prompt of an enrolment.
  public static let drawNewPattern = PromptText("Draw a new unlock pattern")
  /// Enrolment: the first drawing was taken.
  public static let drawAgainToConfirm = PromptText("Draw it again to confirm")

  // The machine's power, asked by the timeout or the power button.
  public static let poweringOff = PromptText("Powering off")
  public static let restarting = PromptText("Restarting")

  /// What the screen says once `action` was asked for.
  public static func announcing(_ action: PowerAction) -> PromptText {
    switch action {
    case .poweroff: return poweringOff
    case .reboot: return restarting
    }
  }

  // Verdicts.
  public static let unlocked = PromptText("Unlocked")
  public static let wrongPattern = PromptText("Wrong pattern")
  /// `replay` and `run --pattern` without an expected pattern: neither right nor wrong.
  public static let patternEntered = PromptText("Pattern entered")
  public static let noMatchDrawNew = PromptText("No match: draw a new pattern")
  public static let patternSaved = PromptText("Pattern saved")
  public static let cannotSavePattern = PromptText("Cannot save the pattern")
  /// A pattern drawn during a timed lockout.
  public static let tooManyTries = PromptText("Too many tries")
  /// Another process held the state lock past its bound: nothing was judged.
  public static let busyTryAgain = PromptText("Busy: try again")

  // Locked states.
  /// The permanent lockout (or a damaged attempts file).
  public static let lockedUntilReset = PromptText("Locked: ask an administrator")
  /// The attempts could not be recorded, so none is judged.
  public static let storageError = PromptText("Storage error: locked. Ask an administrator.")

  /// "Too short: join at least 4 dots".
  public static func tooShort(minimumDots: Int) -> PromptText {
    var text = PromptText("Too short: join at least ")
    text.append(minimumDots)
    text.append(" dots")
    return text
  }

  /// "Wrong pattern: 2 tries left", "Wrong pattern: 1 try left".
  public static func wrongPattern(triesLeft: Int) -> PromptText {
    var text = PromptText("Wrong pattern: ")
    text.append(triesLeft)
    text.append(triesLeft == 1 ? " try left" : " tries left")
    return text
  }

  /// From how many seconds left a countdown shows whole days.
  public static let secondsShownInDays: UInt64 = 2 * 86_400

  /// "Try again in 0:59", "Try again in 1:29:59", "Try again in 3 days".
  public static func tryAgain(in seconds: Int) -> PromptText {
    var text = PromptText("Try again in ")
    if seconds >= Int(secondsShownInDays) {
      text.append(seconds / 86_400)
      text.append(" days")
    } else if seconds >= 3600 {
      text.append(seconds / 3600)
      text.append(":")
      text.append(seconds % 3600 / 60, minimumDigits: 2)
      text.append(":")
      text.append(seconds % 60, minimumDigits: 2)
    } else {
      text.append(seconds / 60)
      text.append(":")
      text.append(seconds % 60, minimumDigits: 2)
    }
    return text
  }
}
