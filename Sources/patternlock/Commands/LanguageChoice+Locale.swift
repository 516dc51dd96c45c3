import CShim
import Scene

extension LanguageChoice {
  /// The language to speak: the one chosen, or for `auto` this process's locale
  /// (LC_ALL, LC_MESSAGES, LANG: under systemd, /etc/locale.conf's or the unit's).
  var forThisProcess: Language {
    func variable(_ name: String) -> String? { pl_getenv(name).map { String(cString: $0) } }
    return resolved(lcAll: variable("LC_ALL"), lcMessages: variable("LC_MESSAGES"), lang: variable("LANG"))
  }
}
