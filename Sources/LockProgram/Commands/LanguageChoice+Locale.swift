import Scene
import SystemCalls

extension LanguageChoice {
  /// The language to speak: the one chosen, or for `auto` this process's locale
  /// (LC_ALL, LC_MESSAGES, LANG: under systemd, /etc/locale.conf's or the unit's).
  package var forThisProcess: Language {
    resolved(
      lcAll: CurrentProcess.environmentVariable("LC_ALL"), lcMessages: CurrentProcess.environmentVariable("LC_MESSAGES"),
      lang: CurrentProcess.environmentVariable("LANG"))
  }
}
