import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import Vault
import XCTest

/// The man pages and the shipped default configuration against the program, so they
/// cannot drift: every option of `--help` is in patternlock(1), every key in
/// patternlock.conf(5) and in the default file, whose values are the built-in ones.
final class DocumentationTests: XCTestCase {
  static let manual = PackageRoot.url("docs/man/patternlock.1")
  static let fileManual = PackageRoot.url("docs/man/patternlock.conf.5")
  static let defaults = PackageRoot.url("config/patternlock.conf")

  /// Roff text with its escapes for '-' undone, so `\-\-grid` reads `--grid`.
  func plainText(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
  }

  func testEveryOptionInHelpIsInTheManualPage() throws {
    let help = try PatternlockBinary.run(["--help"])
    XCTAssertEqual(help.status, 0)
    let options = Set(help.stdout.split(whereSeparator: { " \n(),;'\"=[]".contains($0) }).filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
    XCTAssertGreaterThan(options.count, 15, "too few options found in --help: \(options)")
    let page = try plainText(DocumentationTests.manual)
    for option in options.sorted() {
      XCTAssertTrue(page.contains(option), "\(option) is in --help but not in docs/man/patternlock.1")
    }
    for command in ["layout", "replay", "run", "inject", "set-pattern", "check", "reset-attempts"] {
      XCTAssertTrue(help.stdout.contains("  \(command)"), "\(command) missing from --help")
      XCTAssertTrue(page.contains(".B \(command)") || page.contains(".BI \"\(command) "), "command \(command) has no entry in patternlock.1")
    }
  }

  func testEveryKeyIsInTheFileManualWithItsSectionAndOption() throws {
    let page = try plainText(DocumentationTests.fileManual)
    for section in SettingKey.sections {
      XCTAssertTrue(page.contains(".SS [\(section)]"), "section [\(section)] missing from patternlock.conf.5")
    }
    let commandPage = try plainText(DocumentationTests.manual)
    for key in SettingKey.allCases {
      // The key's entry must sit under its own section heading.
      guard let entry = page.range(of: ".BR \(key.name) \" = \"") else {
        XCTFail("key \(key.name) has no entry in patternlock.conf.5")
        continue
      }
      let heading = page[..<entry.lowerBound].components(separatedBy: ".SS ").last ?? ""
      XCTAssertTrue(heading.hasPrefix("[\(key.section)]"), "\(key.name) is documented outside [\(key.section)]")
      if let option = key.option {
        XCTAssertTrue(page.contains(option), "option \(option) of key \(key.name) not named in patternlock.conf.5")
      }
      XCTAssertTrue(commandPage.contains(key.name), "key \(key.name) not named in patternlock.1")
    }
  }

  func testTheShippedDefaultFileSetsEveryKeyOnceToTheBuiltInDefault() throws {
    let text = try String(contentsOf: DocumentationTests.defaults, encoding: .utf8)
    for key in SettingKey.allCases {
      let lines = text.split(separator: "\n").filter { $0.hasPrefix(key.name + " = ") }
      XCTAssertEqual(lines.count, 1, "key \(key.name) must be set once in config/patternlock.conf")
    }
    var settings = Settings()
    try ConfigurationFiles.apply(DocumentationTests.defaults.path, to: &settings, throttleRefusal: nil)
    XCTAssertEqual(Set(settings.origins.keys), Set(SettingKey.allCases))
    XCTAssertEqual(settings.layout, LayoutOptions())
    XCTAssertEqual(settings.throttle, ThrottleTable.android)
    XCTAssertEqual(settings.stateDirectory, StateDirectory.defaultPath)
    XCTAssertEqual(settings.argonPasses, HashCost.standard.passes)
    XCTAssertEqual(settings.argonMemoryMiB, HashCost.standard.memoryBytes >> 20)
    XCTAssertEqual(settings.seat, "seat0")
    let fresh = Settings()
    XCTAssertEqual(settings.devicePath, fresh.devicePath)
    XCTAssertEqual(settings.outputName, fresh.outputName)
    XCTAssertEqual(settings.mode, fresh.mode)
    XCTAssertEqual(settings.fontPath, fresh.fontPath)
    XCTAssertEqual(settings.calibration, fresh.calibration)
    XCTAssertEqual(settings.minimumDots, fresh.minimumDots)
    XCTAssertEqual(settings.stealth, fresh.stealth)
    XCTAssertEqual(settings.enrollFirst, fresh.enrollFirst)
    XCTAssertEqual(settings.feedbackMilliseconds, fresh.feedbackMilliseconds)
    XCTAssertEqual(settings.idleBlankSeconds, fresh.idleBlankSeconds)
    XCTAssertEqual(settings.exec, fresh.exec)
  }

  func testTheShippedEtcFileIsValidAndSetsNothing() throws {
    var settings = Settings()
    try ConfigurationFiles.apply(PackageRoot.path("config/etc-patternlock.conf"), to: &settings, throttleRefusal: nil)
    XCTAssertEqual(settings, Settings())
  }
}
