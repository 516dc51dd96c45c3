// CatalogueCompiler: turns po/patternlock.pot and po/LANG.po into the Swift tables of
// Sources/Scene/Catalogue, which both the host and the Embedded Swift builds compile.
//
// Design: the tables are generated once and checked in, not made by a build-tool
// plugin: scripts/build-embedded and scripts/build-aarch64 pass Embedded Swift flags
// to every target of the build, which a generator built as a plugin's host tool would
// get too, and the .deb is rebuilt byte for byte from a clone (a checked-in source
// needs no tool at build time). CatalogueTests fails when the checked-in files differ
// from what the .po files give, so they cannot drift.
//
// Rejected: .mo files read at run time (a file format and a reader on the device for
// twenty strings, and a missing file would leave the lock without words); a hand-kept
// Swift table (translators work with .po files and their tools: msgfmt, msgmerge, Poedit).

/// One entry of a .po file: its context (the message's name), English text, and the
/// translations (one per plural form; empty when untranslated).
public struct POEntry: Equatable, Sendable {
  public var context = ""
  public var singular = ""
  public var plural: String?
  public var translations: [String] = []
  public var isFuzzy = false
  public var comments: [String] = []
  /// Where the entry starts, for messages.
  public var line = 0
}

/// A parsed .po (or .pot) file: the header's fields and the entries after it.
public struct POFile: Sendable {
  public let path: String
  public private(set) var header: [String: String] = [:]
  public private(set) var entries: [POEntry] = []

  /// Parses the text of a .po file: comments, msgctxt, msgid, msgid_plural, msgstr and
  /// msgstr[N], each string possibly continued on the lines after it.
  ///
  /// - Throws: `CatalogueError` naming the file and line of what it cannot read.
  public init(path: String, text: String) throws(CatalogueError) {
    self.path = path
    var entry = POEntry()
    var field: String?
    var hasContent = false
    var lineNumber = 0

    func finish() throws(CatalogueError) {
      defer {
        entry = POEntry()
        field = nil
        hasContent = false
      }
      guard hasContent else { return }
      if entry.context.isEmpty && entry.singular.isEmpty {
        for line in (entry.translations.first ?? "").split(separator: "\n") {
          guard let colon = line.firstIndex(of: ":") else { continue }
          header[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: " ")
        }
        return
      }
      guard !entry.context.isEmpty else {
        throw CatalogueError(path: path, line: entry.line, "the entry for \"\(entry.singular)\" has no msgctxt (its name in the code)")
      }
      entries.append(entry)
    }

    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.trimmingCharacters(in: " \t\r")
      if line.isEmpty {
        try finish()
        continue
      }
      if line.hasPrefix("#") {
        if hasContent && field != nil { try finish() }
        if line.hasPrefix("#,") && line.contains("fuzzy") { entry.isFuzzy = true }
        if line.hasPrefix("#.") { entry.comments.append(line.dropFirst(2).trimmingCharacters(in: " ")) }
        if entry.line == 0 { entry.line = lineNumber }
        continue
      }
      if line.hasPrefix("\"") {
        guard let field else { throw CatalogueError(path: path, line: lineNumber, "a string continues no msgid or msgstr") }
        try append(try POFile.unquote(line, path: path, line: lineNumber), to: field)
        continue
      }
      guard let space = line.firstIndex(of: " ") else {
        throw CatalogueError(path: path, line: lineNumber, "cannot read '\(line)'")
      }
      let keyword = String(line[..<space])
      let value = try POFile.unquote(line[line.index(after: space)...].trimmingCharacters(in: " "), path: path, line: lineNumber)
      if keyword == "msgctxt" && field != nil && field != "msgctxt" { try finish() }
      if entry.line == 0 { entry.line = lineNumber }
      hasContent = true
      switch keyword {
      case "msgctxt", "msgid", "msgid_plural", "msgstr":
        field = keyword
      default:
        guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), let n = Int(keyword.dropFirst(7).dropLast()) else {
          throw CatalogueError(path: path, line: lineNumber, "unknown keyword '\(keyword)'")
        }
        guard n == entry.translations.count else {
          throw CatalogueError(path: path, line: lineNumber, "\(keyword) out of order (expected msgstr[\(entry.translations.count)])")
        }
        field = keyword
        entry.translations.append("")
      }
      if keyword == "msgstr" { entry.translations = [""] }
      try append(value, to: field!)
    }
    try finish()

    func append(_ text: String, to field: String) throws(CatalogueError) {
      switch field {
      case "msgctxt": entry.context += text
      case "msgid": entry.singular += text
      case "msgid_plural": entry.plural = (entry.plural ?? "") + text
      default: entry.translations[entry.translations.count - 1] += text
      }
    }
  }

  /// A quoted .po string's text: the quotes removed and C's escapes read.
  static func unquote(_ quoted: String, path: String, line: Int) throws(CatalogueError) -> String {
    guard quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" else {
      throw CatalogueError(path: path, line: line, "expected a string in double quotes, found '\(quoted)'")
    }
    var result = ""
    var escaped = false
    for character in quoted.dropFirst().dropLast() {
      if escaped {
        switch character {
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "\"", "\\": result.append(character)
        default: throw CatalogueError(path: path, line: line, "unknown escape '\\\(character)'")
        }
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}

extension StringProtocol {
  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let c = s.first, set.contains(c) { s.removeFirst() }
    while let c = s.last, set.contains(c) { s.removeLast() }
    return String(s)
  }
}
