/// The `language =` setting: a language of the catalogue, or `auto`, the locale's.
///
/// `auto` reads the locale as gettext does for messages: the first of LC_ALL,
/// LC_MESSAGES and LANG that is set and not empty, such as `de_DE.UTF-8`; its
/// language and territory (`de_DE`) name a language of the catalogue, else its language
/// alone (`de`); anything else (`C`, `POSIX`, a language without a catalogue) is
/// English. Under systemd the unit's locale is the system's (`/etc/locale.conf`) unless
/// the unit sets `Environment=LANG=...`.
public enum LanguageChoice: Equatable, Sendable {
  case automatic
  case fixed(Language)

  /// The words `language =` accepts, in order: `auto` and each language's code.
  public static var names: [String] { ["auto"] + Language.allCases.map { $0.code } }

  /// `auto`, or a language's code (`en`, `de`, `zh_CN`); nil for anything else.
  public init?(name: String) {
    if name == "auto" {
      self = .automatic
      return
    }
    guard let language = Language.allCases.first(where: { $0.code == name }) else { return nil }
    self = .fixed(language)
  }

  /// The language to speak, given the locale variables (nil when unset).
  public func resolved(lcAll: String?, lcMessages: String?, lang: String?) -> Language {
    if case .fixed(let language) = self { return language }
    for variable in [lcAll, lcMessages, lang] {
      guard let locale = variable, !locale.isEmpty else { continue }
      return LanguageChoice.language(ofLocale: locale) ?? .en
    }
    return .en
  }

  /// The catalogue's language for a locale name `ll_CC.codeset@modifier`, or nil.
  static func language(ofLocale locale: String) -> Language? {
    var name = ""
    for scalar in locale.unicodeScalars {
      if scalar == "." || scalar == "@" { break }
      name.unicodeScalars.append(scalar)
    }
    if let exact = Language.allCases.first(where: { $0.code == name }) { return exact }
    var language = ""
    for scalar in name.unicodeScalars {
      if scalar == "_" { break }
      language.unicodeScalars.append(scalar)
    }
    return Language.allCases.first { $0.code == language }
  }
}
