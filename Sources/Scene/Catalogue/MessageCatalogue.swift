// Generated from po/patternlock.pot and po/*.po by `swift run patternlock-catalogue`:
// do not edit. CatalogueTests fails when this file is not what the .po files give.

/// The texts of every message in every language, and each language's plural rule.
enum MessageCatalogue {
  /// The printf-style text of `message` in `language`, in plural form `form` (0 for
  /// messages without plural forms); English where a language has no translation.
  static func text(of message: Message, form: Int, in language: Language) -> StaticString {
    switch language {
    case .en:
      switch message {
      case .drawPattern: return "Draw your unlock pattern"
      case .drawNewPattern: return "Draw a new unlock pattern"
      case .drawAgainToConfirm: return "Draw it again to confirm"
      case .poweringOff: return "Powering off"
      case .restarting: return "Restarting"
      case .unlocked: return "Unlocked"
      case .wrongPattern: return "Wrong pattern"
      case .patternEntered: return "Pattern entered"
      case .noMatchDrawNew: return "No match: draw a new pattern"
      case .patternSaved: return "Pattern saved"
      case .cannotSavePattern: return "Cannot save the pattern"
      case .commonPattern: return "Too common: use more dots and turns"
      case .patternSavedWithin: return "Saved: about %d guesses; %d allowed"
      case .patternSavedBeyond: return "Saved: over %d guesses; %d allowed"
      case .tooManyTries: return "Too many tries"
      case .checking: return "Checking…"
      case .busyTryAgain: return "Busy: try again"
      case .lockedUntilReset: return "Locked: ask an administrator"
      case .storageError: return "Storage error: locked. Ask an administrator."
      case .tpmError: return "TPM error: locked. Ask an administrator."
      case .tooShort:
        switch form {
        case 0: return "Too short: join at least %d dot"
        default: return "Too short: join at least %d dots"
        }
      case .wrongPatternTriesLeft:
        switch form {
        case 0: return "Wrong pattern: %d try left"
        default: return "Wrong pattern: %d tries left"
        }
      case .tryAgainInMinutes: return "Try again in %d:%02d"
      case .tryAgainInHours: return "Try again in %d:%02d:%02d"
      case .tryAgainInDays:
        switch form {
        case 0: return "Try again in %d day"
        default: return "Try again in %d days"
        }
      }
    case .de:
      switch message {
      case .drawPattern: return "Entsperrmuster zeichnen"
      case .drawNewPattern: return "Neues Entsperrmuster zeichnen"
      case .drawAgainToConfirm: return "Zum Bestätigen erneut zeichnen"
      case .poweringOff: return "Wird ausgeschaltet"
      case .restarting: return "Wird neu gestartet"
      case .unlocked: return "Entsperrt"
      case .wrongPattern: return "Falsches Muster"
      case .patternEntered: return "Muster eingegeben"
      case .noMatchDrawNew: return "Stimmt nicht überein: neues Muster zeichnen"
      case .patternSaved: return "Muster gespeichert"
      case .cannotSavePattern: return "Muster kann nicht gespeichert werden"
      case .commonPattern: return "Zu häufig: mehr Punkte und Knicke"
      case .patternSavedWithin: return "Gespeichert: ~%d Versuche; %d erlaubt"
      case .patternSavedBeyond: return "Gespeichert: >%d Versuche; %d erlaubt"
      case .tooManyTries: return "Zu viele Versuche"
      case .checking: return "Wird geprüft …"
      case .busyTryAgain: return "Beschäftigt: bitte erneut versuchen"
      case .lockedUntilReset: return "Gesperrt: Administrator fragen"
      case .storageError: return "Speicherfehler: gesperrt. Administrator fragen."
      case .tpmError: return "TPM-Fehler: gesperrt. Administrator fragen."
      case .tooShort:
        switch form {
        case 0: return "Zu kurz: mindestens %d Punkt verbinden"
        default: return "Zu kurz: mindestens %d Punkte verbinden"
        }
      case .wrongPatternTriesLeft:
        switch form {
        case 0: return "Falsches Muster: noch %d Versuch"
        default: return "Falsches Muster: noch %d Versuche"
        }
      case .tryAgainInMinutes: return "In %d:%02d erneut versuchen"
      case .tryAgainInHours: return "In %d:%02d:%02d erneut versuchen"
      case .tryAgainInDays:
        switch form {
        case 0: return "In %d Tag erneut versuchen"
        default: return "In %d Tagen erneut versuchen"
        }
      }
    case .zhCN:
      switch message {
      case .drawPattern: return "绘制解锁图案"
      case .drawNewPattern: return "绘制新的解锁图案"
      case .drawAgainToConfirm: return "再次绘制图案以确认"
      case .poweringOff: return "正在关机"
      case .restarting: return "正在重启"
      case .unlocked: return "已解锁"
      case .wrongPattern: return "图案错误"
      case .patternEntered: return "已输入图案"
      case .noMatchDrawNew: return "两次图案不一致，请重新绘制"
      case .patternSaved: return "图案已保存"
      case .cannotSavePattern: return "无法保存图案"
      case .commonPattern: return "太常见：请多用几个点和转折"
      case .patternSavedWithin: return "已保存：约 %d 次可猜中；允许 %d 次"
      case .patternSavedBeyond: return "已保存：超过 %d 次才能猜中；允许 %d 次"
      case .tooManyTries: return "尝试次数过多"
      case .checking: return "正在验证…"
      case .busyTryAgain: return "系统繁忙，请重试"
      case .lockedUntilReset: return "已锁定，请联系管理员"
      case .storageError: return "存储错误，已锁定。请联系管理员。"
      case .tpmError: return "TPM 错误，已锁定。请联系管理员。"
      case .tooShort: return "至少连接 %d 个点，请重试"
      case .wrongPatternTriesLeft: return "图案错误，还可尝试 %d 次"
      case .tryAgainInMinutes: return "请在 %d:%02d 后重试"
      case .tryAgainInHours: return "请在 %d:%02d:%02d 后重试"
      case .tryAgainInDays: return "请在 %d 天后重试"
      }
    }
  }

  /// Which plural form a count takes in a language: its .po header's `plural=`
  /// (English: `n != 1`), kept within the forms there are.
  static func pluralForm(for n: Int, in language: Language) -> Int {
    switch language {
    case .en: return n != 1 ? 1 : 0
    case .de: return min(max((n != 1 ? 1 : 0), 0), 1)  // plural=(n != 1)
    case .zhCN: return min(max(0, 0), 0)  // plural=0
    }
  }
}
