// Generated from po/patternlock.pot and po/*.po by `swift run patternlock-catalogue`:
// do not edit. CatalogueTests fails when this file is not what the .po files give.

/// A message of the lock screen: one entry of po/patternlock.pot, named by its msgctxt.
public enum Message: CaseIterable, Sendable {
  /// "Draw your unlock pattern": The lock's idle prompt.
  case drawPattern
  /// "Draw a new unlock pattern": The idle prompt of an enrolment (setting a new pattern).
  case drawNewPattern
  /// "Draw it again to confirm": Enrolment: the first drawing was taken; the same pattern is asked for again.
  case drawAgainToConfirm
  /// "Powering off": The machine is switching off (the unattended timeout or the power button).
  case poweringOff
  /// "Restarting": The machine is restarting (the unattended timeout).
  case restarting
  /// "Unlocked": The right pattern was drawn.
  case unlocked
  /// "Wrong pattern": A wrong pattern, when no count of tries is shown.
  case wrongPattern
  /// "Pattern entered": A pattern was drawn where nothing judges it (development and replay).
  case patternEntered
  /// "No match: draw a new pattern": Enrolment: the second drawing differs from the first; start again.
  case noMatchDrawNew
  /// "Pattern saved": Enrolment: the new pattern is stored.
  case patternSaved
  /// "Cannot save the pattern": Enrolment: the new pattern could not be stored.
  case cannotSavePattern
  /// "Too common: use more dots and turns": Enrolment: the pattern is among those people choose most, which an attacker tries first; the owner draws another.
  case commonPattern
  /// "Saved: about %d guesses; %d allowed": Enrolment: the pattern is stored; an attacker who knows how people choose finds it within about the first %d guesses (20 to 100000), and the lock allows %d tries.
  case patternSavedWithin
  /// "Saved: over %d guesses; %d allowed": Enrolment: the pattern is stored; an attacker who knows how people choose needs more than %d guesses (100000), and the lock allows %d tries.
  case patternSavedBeyond
  /// "Too many tries": A pattern drawn while the lock waits out a lockout.
  case tooManyTries
  /// "Checking…": The pattern is with a judge in another process (the desktop's lock asks root's judge): its verdict comes next.
  case checking
  /// "Busy: try again": Another program held the lock's files: the pattern was not judged.
  case busyTryAgain
  /// "Locked: ask an administrator": Locked for good, until an administrator clears it.
  case lockedUntilReset
  /// "Storage error: locked. Ask an administrator.": The tries cannot be written down, so none is judged: locked.
  case storageError
  /// "TPM error: locked. Ask an administrator.": The TPM that judges the pattern does not answer (or is not the enrolled one), so none is judged: locked.
  case tpmError
  /// "Too short: join at least %d dots": %d: the fewest dots a pattern must join (1 to 49).
  case tooShort
  /// "Wrong pattern: %d tries left": %d: how many wrong patterns are left before a lockout.
  case wrongPatternTriesLeft
  /// "Try again in %d:%02d": A lockout's countdown under an hour: minutes, then seconds with two digits ("0:59").
  case tryAgainInMinutes
  /// "Try again in %d:%02d:%02d": A lockout's countdown under two days: hours, minutes, seconds ("1:29:59").
  case tryAgainInHours
  /// "Try again in %d days": A lockout of two days or more: whole days.
  case tryAgainInDays

  /// How many numbers the text takes (its placeholders: %d, %02d, %1$d...).
  public var numberCount: Int {
    switch self {
    case .tooShort, .wrongPatternTriesLeft, .tryAgainInDays: return 1
    case .patternSavedWithin, .patternSavedBeyond, .tryAgainInMinutes: return 2
    case .tryAgainInHours: return 3
    default: return 0
    }
  }

  /// Whether the text has plural forms, chosen by its first number.
  public var hasPluralForms: Bool {
    switch self {
    case .tooShort, .wrongPatternTriesLeft, .tryAgainInDays: return true
    default: return false
    }
  }
}
