/// Writes the Swift source of the catalogue: `Message` (one case per entry of the
/// template), `Language` (English, then one case per .po file) and `MessageCatalogue`
/// (each text, each plural rule).
public struct CatalogueSource {
  /// The files to write under Sources/Scene/Catalogue, by name.
  public private(set) var files: [(name: String, text: String)] = []
  /// "de: tooShort" for each message a language leaves untranslated (shown in English).
  public private(set) var untranslated: [String] = []

  struct Entry {
    let name: String
    let english: [String]
    let comment: String
    let numberCount: Int
    var isPlural: Bool { english.count > 1 }
  }

  struct Translation {
    let code: String
    let caseName: String
    let team: String
    let nplurals: Int
    let plural: PluralExpression
    let pluralText: String
    var texts: [String: [String]] = [:]
  }

  static let header = """
    // Generated from po/patternlock.pot and po/*.po by `swift run patternlock-catalogue`:
    // do not edit. CatalogueTests fails when this file is not what the .po files give.

    """

  /// Compiles the template and the translations.
  ///
  /// - Throws: `CatalogueError` for a message the template lacks, a name that is no
  ///   Swift identifier, or a translation whose numbers differ from the English.
  public init(template: POFile, translations: [POFile]) throws(CatalogueError) {
    var entries: [Entry] = []
    for e in template.entries {
      guard let first = e.context.first, first.isLetter, first.isLowercase,
        e.context.allSatisfy({ $0.isLetter || $0.isNumber }) else {
        throw CatalogueError(path: template.path, line: e.line, "msgctxt '\(e.context)' is no Swift name (lowerCamelCase)")
      }
      let english = e.plural.map { [e.singular, $0] } ?? [e.singular]
      let numbers = try Placeholders.arguments(of: english.last!)
      entries.append(Entry(name: e.context, english: english, comment: e.comments.joined(separator: " "), numberCount: numbers.max() ?? 0))
    }
    var languages: [Translation] = []
    for file in translations.sorted(by: { $0.path < $1.path }) {
      guard let code = file.header["Language"], !code.isEmpty else { throw CatalogueError(path: file.path, "the header has no Language") }
      guard let forms = file.header["Plural-Forms"], let nplurals = CatalogueSource.field("nplurals", of: forms).flatMap({ Int($0) }),
        let pluralText = CatalogueSource.field("plural", of: forms) else {
        throw CatalogueError(path: file.path, "the header has no Plural-Forms: nplurals=N; plural=EXPRESSION;")
      }
      let plural = try PluralExpression(parsing: pluralText)
      var translation = Translation(
        code: code, caseName: code.replacingUnderscoreCamel(), team: file.header["Language-Team"] ?? code, nplurals: nplurals, plural: plural, pluralText: pluralText)
      for e in file.entries {
        guard let entry = entries.first(where: { $0.name == e.context }) else {
          throw CatalogueError(path: file.path, line: e.line, "msgctxt '\(e.context)' is not in patternlock.pot (run msgmerge)")
        }
        guard e.singular == entry.english[0], (e.plural == nil) == !entry.isPlural else {
          throw CatalogueError(path: file.path, line: e.line, "the msgid of '\(e.context)' is not the template's (run msgmerge)")
        }
        guard !e.isFuzzy, !e.translations.isEmpty, e.translations.allSatisfy({ !$0.isEmpty }) else { continue }
        if entry.isPlural && e.translations.count != nplurals {
          throw CatalogueError(path: file.path, line: e.line, "'\(e.context)' has \(e.translations.count) forms, the header says \(nplurals)")
        }
        let english = Set(try Placeholders.arguments(of: entry.english.last!))
        for text in e.translations {
          let used = Set(try Placeholders.arguments(of: text))
          // A singular form may leave out its number ("one try left"); nothing else may.
          guard used.isSubset(of: english), entry.isPlural || used == english else {
            throw CatalogueError(path: file.path, line: e.line, "'\(text)' does not use the numbers of '\(entry.english.last!)'")
          }
        }
        translation.texts[e.context] = e.translations
      }
      for entry in entries where translation.texts[entry.name] == nil { untranslated.append("\(code): \(entry.name)") }
      languages.append(translation)
    }
    files = [
      ("Message.swift", CatalogueSource.messageSource(entries)),
      ("Language.swift", CatalogueSource.languageSource(languages)),
      ("MessageCatalogue.swift", CatalogueSource.catalogueSource(entries, languages)),
    ]
  }

  static func field(_ name: String, of header: String) -> String? {
    for part in header.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2 && pair[0].trimmingCharacters(in: " ") == name { return pair[1].trimmingCharacters(in: " ") }
    }
    return nil
  }

  static func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func messageSource(_ entries: [Entry]) -> String {
    var s = header + """

      /// A message of the lock screen: one entry of po/patternlock.pot, named by its msgctxt.
      public enum Message: CaseIterable, Sendable {

      """
    for e in entries {
      s += "  /// \(literal(e.english.last!))"
      if !e.comment.isEmpty { s += ": \(e.comment)" }
      s += "\n  case \(e.name)\n"
    }
    s += "\n  /// How many numbers the text takes (its placeholders: %d, %02d, %1$d...).\n"
    s += "  public var numberCount: Int {\n    switch self {\n"
    for count in Set(entries.map(\.numberCount)).sorted() where count > 0 {
      s += "    case " + entries.filter { $0.numberCount == count }.map { "." + $0.name }.joined(separator: ", ") + ": return \(count)\n"
    }
    s += "    default: return 0\n    }\n  }\n"
    s += "\n  /// Whether the text has plural forms, chosen by its first number.\n"
    let plurals = entries.filter(\.isPlural)
    s += "  public var hasPluralForms: Bool {\n    switch self {\n"
    if !plurals.isEmpty { s += "    case " + plurals.map { "." + $0.name }.joined(separator: ", ") + ": return true\n" }
    s += "    default: return false\n    }\n  }\n}\n"
    return s
  }

  static func languageSource(_ languages: [Translation]) -> String {
    var s = header + """

      /// A language of the lock screen: English (the template's msgids) and one per po/LANG.po.
      public enum Language: CaseIterable, Sendable {
        /// English: the texts of po/patternlock.pot.
        case en

      """
    for l in languages { s += "  /// po/\(l.code).po: \(l.team).\n  case \(l.caseName)\n" }
    s += "\n  /// The language's code, as `language =` and a locale name write it.\n"
    s += "  public var code: String {\n    switch self {\n    case .en: return \"en\"\n"
    for l in languages { s += "    case .\(l.caseName): return \(literal(l.code))\n" }
    s += "    }\n  }\n}\n"
    return s
  }

  static func catalogueSource(_ entries: [Entry], _ languages: [Translation]) -> String {
    var s = header + """

      /// The texts of every message in every language, and each language's plural rule.
      enum MessageCatalogue {
        /// The printf-style text of `message` in `language`, in plural form `form` (0 for
        /// messages without plural forms); English where a language has no translation.
        static func text(of message: Message, form: Int, in language: Language) -> StaticString {
          switch language {

      """
    func cases(_ texts: (Entry) -> [String]) -> String {
      var c = "      switch message {\n"
      for e in entries {
        let forms = texts(e)
        if forms.count == 1 {
          c += "      case .\(e.name): return \(literal(forms[0]))\n"
        } else {
          c += "      case .\(e.name):\n        switch form {\n"
          for (i, f) in forms.enumerated().dropLast() { c += "        case \(i): return \(literal(f))\n" }
          c += "        default: return \(literal(forms.last!))\n        }\n"
        }
      }
      return c + "      }\n"
    }
    s += "    case .en:\n" + cases { $0.english }
    for l in languages {
      s += "    case .\(l.caseName):\n" + cases { l.texts[$0.name] ?? $0.english }
    }
    s += """
          }
        }

        /// Which plural form a count takes in a language: its .po header's `plural=`
        /// (English: `n != 1`), kept within the forms there are.
        static func pluralForm(for n: Int, in language: Language) -> Int {
          switch language {
          case .en: return n != 1 ? 1 : 0

      """
    for l in languages {
      s += "    case .\(l.caseName): return min(max(\(l.plural.swift), 0), \(l.nplurals - 1))  // plural=\(l.pluralText)\n"
    }
    s += "    }\n  }\n}\n"
    return s
  }
}

extension String {
  /// `zh_CN` as a Swift case name: `zhCN`.
  func replacingUnderscoreCamel() -> String {
    var out = ""
    var upper = false
    for c in self {
      if c == "_" || c == "-" || c == "@" { upper = true; continue }
      out += upper ? c.uppercased() : String(c)
      upper = false
    }
    return out
  }
}
