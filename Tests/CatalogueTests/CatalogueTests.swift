import CatalogueCompiler
import CommandTestSupport
import Foundation
@testable import Scene
import XCTest

/// The message catalogue: the Swift tables checked in under Sources/Scene/Catalogue are
/// what po/ gives, every shipped language is complete and accepted by msgfmt, and the
/// prompts read as each language writes them (plural forms, numbers, word order).
final class CatalogueTests: XCTestCase {
  func testCheckedInTablesAreWhatThePOFilesGive() throws {
    let source = try CatalogueFiles.compile(packageRoot: PackageRoot.url.path)
    for file in source.files {
      let path = PackageRoot.path(CatalogueFiles.outputDirectory + "/" + file.name)
      let checkedIn = try String(contentsOfFile: path, encoding: .utf8)
      XCTAssertEqual(checkedIn, file.text, "\(path) is out of date with po/: run `swift run patternlock-catalogue`")
    }
  }

  func testEveryLanguageTranslatesEveryMessage() throws {
    let source = try CatalogueFiles.compile(packageRoot: PackageRoot.url.path)
    XCTAssertEqual(source.untranslated, [], "messages a shipped language shows in English")
    XCTAssertEqual(Language.allCases.map(\.code), ["en", "de", "zh_CN"])
  }

  func testMsgfmtAcceptsEveryPOFile() throws {
    let msgfmt = ["/usr/bin/msgfmt", "/usr/local/bin/msgfmt"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let msgfmt else { throw XCTSkip("msgfmt is not installed (Debian's gettext; scripts/install-deps installs it)") }
    for language in Language.allCases where language != .en {
      let po = PackageRoot.path("po/\(language.code).po")
      let result = try ChildProcess.run(URL(fileURLWithPath: msgfmt), ["--check", "--check-format", "-o", "/dev/null", po])
      XCTAssertEqual(result.status, 0, "msgfmt --check \(po): \(result.stderr)")
    }
  }

  func testEnglishIsTheTemplatesText() {
    XCTAssertEqual(PromptText.drawPattern.string, "Draw your unlock pattern")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 1).string, "Wrong pattern: 1 try left")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 2).string, "Wrong pattern: 2 tries left")
    XCTAssertEqual(PromptText.tooShort(minimumDots: 4).string, "Too short: join at least 4 dots")
    XCTAssertEqual(PromptText.tryAgain(in: 59).string, "Try again in 0:59")
    XCTAssertEqual(PromptText.tryAgain(in: 89).string, "Try again in 1:29")
    XCTAssertEqual(PromptText.tryAgain(in: 5400).string, "Try again in 1:30:00")
    XCTAssertEqual(PromptText.tryAgain(in: 3 * 86_400 + 5).string, "Try again in 3 days")
  }

  func testGermanPutsTheNumbersWhereGermanDoes() {
    XCTAssertEqual(PromptText.drawPattern.text(in: .de), "Entsperrmuster zeichnen")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 1).text(in: .de), "Falsches Muster: noch 1 Versuch")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 2).text(in: .de), "Falsches Muster: noch 2 Versuche")
    XCTAssertEqual(PromptText.tryAgain(in: 59).text(in: .de), "In 0:59 erneut versuchen")
    XCTAssertEqual(PromptText.tryAgain(in: 3 * 86_400).text(in: .de), "In 3 Tagen erneut versuchen")
  }

  func testChineseHasOneFormAndItsOwnWordOrder() {
    XCTAssertEqual(PromptText.drawPattern.text(in: .zhCN), "绘制解锁图案")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 1).text(in: .zhCN), "图案错误，还可尝试 1 次")
    XCTAssertEqual(PromptText.wrongPattern(triesLeft: 3).text(in: .zhCN), "图案错误，还可尝试 3 次")
    XCTAssertEqual(PromptText.tryAgain(in: 59).text(in: .zhCN), "请在 0:59 后重试")
    XCTAssertEqual(PromptText.tryAgain(in: 5 * 86_400).text(in: .zhCN), "请在 5 天后重试")
  }

  func testNumberedPlaceholdersMayBeReordered() {
    var numbers = InlineArray<3, Int>(repeating: 0)
    numbers[0] = 7
    numbers[1] = 5
    var text = ""
    MessageFormat.forEachScalar(of: "%2$02d sur %1$d, 100%%", numbers: numbers) { text.unicodeScalars.append($0) }
    XCTAssertEqual(text, "05 sur 7, 100%")
  }

  func testPluralRulesOfOtherLanguagesCompile() throws {
    // Russian's rule: three forms, the kind of expression a new .po brings.
    let russian = try PluralExpression(
      parsing: "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
    XCTAssertEqual([1, 2, 5, 11, 21, 22, 25, 111].map(russian.evaluate), [0, 1, 2, 2, 0, 1, 2, 2])
    XCTAssertEqual(try PluralExpression(parsing: "(n != 1)").swift, "(n != 1 ? 1 : 0)")
  }

  func testAPOFileWithAMismatchedNumberIsRefused() throws {
    let template = try POFile(path: "t.pot", text: """
      msgctxt "tooShort"
      msgid "join %d dot"
      msgid_plural "join %d dots"
      msgstr[0] ""
      msgstr[1] ""
      """)
    let bad = try POFile(path: "xx.po", text: """
      msgid ""
      msgstr "Language: xx\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n"

      msgctxt "tooShort"
      msgid "join %d dot"
      msgid_plural "join %d dots"
      msgstr[0] "joindre %2$d point"
      msgstr[1] "joindre %d points"
      """)
    XCTAssertThrowsError(try CatalogueSource(template: template, translations: [bad])) { error in
      XCTAssertTrue("\(error)".hasPrefix("xx.po:4: "), "\(error)")
    }
  }

  func testLanguageAutoFollowsTheLocaleAsGettextDoes() {
    let auto = LanguageChoice.automatic
    XCTAssertEqual(auto.resolved(lcAll: nil, lcMessages: nil, lang: "de_DE.UTF-8"), .de)
    XCTAssertEqual(auto.resolved(lcAll: nil, lcMessages: nil, lang: "zh_CN.UTF-8"), .zhCN)
    XCTAssertEqual(auto.resolved(lcAll: "", lcMessages: "zh_CN.utf8", lang: "de_AT.UTF-8"), .zhCN, "an empty LC_ALL is unset")
    XCTAssertEqual(auto.resolved(lcAll: "C.UTF-8", lcMessages: "de_DE", lang: "de_DE"), .en, "LC_ALL wins, and C is English")
    XCTAssertEqual(auto.resolved(lcAll: nil, lcMessages: nil, lang: "zh_TW.UTF-8"), .en, "Traditional Chinese has no catalogue")
    XCTAssertEqual(auto.resolved(lcAll: nil, lcMessages: nil, lang: "de_CH@euro"), .de)
    XCTAssertEqual(auto.resolved(lcAll: nil, lcMessages: nil, lang: nil), .en)
    XCTAssertEqual(LanguageChoice.fixed(.de).resolved(lcAll: "zh_CN.UTF-8", lcMessages: nil, lang: nil), .de)
    XCTAssertEqual(LanguageChoice(name: "zh_CN"), .fixed(.zhCN))
    XCTAssertNil(LanguageChoice(name: "fr"))
    XCTAssertEqual(LanguageChoice.names, ["auto", "en", "de", "zh_CN"])
  }
}
