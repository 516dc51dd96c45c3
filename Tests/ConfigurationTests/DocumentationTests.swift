import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import Vault
import XCTest

/// The man pages and the shipped default configuration against the settings table, so
/// they cannot drift: every option of the table is in patternlock(1) (`--help`'s, in
/// CommandLineTests/HelpTests)
/// under each command that takes it, every key in patternlock.conf(5) and in the
/// default file, whose values are the built-in ones.
final class DocumentationTests: XCTestCase {
  static let manual = PackageRoot.url("docs/man/patternlock.1")
  static let fileManual = PackageRoot.url("docs/man/patternlock.conf.5")
  static let defaults = PackageRoot.url("config/patternlock.conf")

  /// Roff text with its escapes for '-' undone, so `\-\-grid` reads `--grid`.
  func plainText(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
  }

  func testEveryOptionOfTheTableIsInTheManualPage() throws {
    let page = try plainText(DocumentationTests.manual)
    for setting in Setting.allCases {
      guard let option = setting.option else { continue }
      XCTAssertTrue(page.contains(option), "\(option) is in the settings table but not in docs/man/patternlock.1")
      for command in setting.row.commands {
        XCTAssertTrue(page.contains(command.name), "command \(command.name) not in patternlock.1")
      }
    }
    for command in Command.allCases {
      XCTAssertTrue(page.contains(".B \(command.name)") || page.contains(".BI \"\(command.name) "), "command \(command.name) has no entry in patternlock.1")
    }
  }

  /// Defaults of other modules, written into the table's help lines.
  func testTheHelpStatesOtherModulesDefaults() {
    XCTAssertTrue(Setting.stateDir.row.help.contains("(default \(StateDirectory.defaultPath))"))
    XCTAssertTrue(Setting.argonPasses.row.help.contains("(default \(HashCost.standard.passes))"))
    XCTAssertTrue(Setting.argonMemoryMiB.row.help.contains("(default \(HashCost.standard.memoryBytes >> 20))"))
    XCTAssertTrue(Setting.grid.row.help.contains("(default \(LayoutOptions().gridSize))"))
    XCTAssertTrue(Setting.hitRadius.row.help.contains("(default \(LayoutOptions().hitRadiusPerMille))"))
    XCTAssertTrue(Setting.feedbackMilliseconds.row.help.contains("(default \(Settings().feedbackMilliseconds))"))
    XCTAssertTrue(Setting.minDots.row.help.contains("(default \(Settings().minimumDots))"))
    XCTAssertTrue(Setting.wait.row.help.contains("(default \(Settings().waitMilliseconds))"))
  }

  func testEveryKeyIsInTheFileManualWithItsSectionAndOption() throws {
    let page = try plainText(DocumentationTests.fileManual)
    for section in Setting.sections {
      XCTAssertTrue(page.contains(".SS [\(section)]"), "section [\(section)] missing from patternlock.conf.5")
    }
    let commandPage = try plainText(DocumentationTests.manual)
    for key in Setting.fileKeys {
      // The key's entry must sit under its own section heading.
      guard let entry = page.range(of: ".BR \(key.name) \" = \"") else {
        XCTFail("key \(key.name) has no entry in patternlock.conf.5")
        continue
      }
      let heading = page[..<entry.lowerBound].components(separatedBy: ".SS ").last ?? ""
      XCTAssertTrue(heading.hasPrefix("[\(key.section ?? "")]"), "\(key.name) is documented outside [\(key.section ?? "")]")
      if let option = key.option {
        XCTAssertTrue(page.contains(option), "option \(option) of key \(key.name) not named in patternlock.conf.5")
      }
      XCTAssertTrue(commandPage.contains(key.name), "key \(key.name) not named in patternlock.1")
    }
  }

  func testTheShippedDefaultFileSetsEveryKeyOnceToTheBuiltInDefault() throws {
    let text = try String(contentsOf: DocumentationTests.defaults, encoding: .utf8)
    for key in Setting.fileKeys {
      let lines = text.split(separator: "\n").filter { $0.hasPrefix(key.name + " = ") || $0 == key.name + " =" }
      XCTAssertEqual(lines.count, 1, "key \(key.name) must be set once in config/patternlock.conf")
    }
    var settings = Settings()
    try ConfigurationFiles.apply(DocumentationTests.defaults.path, to: &settings, distrust: nil)
    XCTAssertEqual(Set(settings.origins.keys), Set(Setting.fileKeys))
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
    XCTAssertEqual(settings.message, fresh.message)
    XCTAssertEqual(settings.timeoutSeconds, fresh.timeoutSeconds)
    XCTAssertEqual(settings.timeoutAction, fresh.timeoutAction)
    XCTAssertEqual(settings.themePreset, fresh.themePreset)
    XCTAssertEqual(settings.themeOverrides, fresh.themeOverrides)
    XCTAssertEqual(settings.theme, fresh.theme)
  }

  func testTheShippedEtcFileIsValidAndSetsNothing() throws {
    var settings = Settings()
    try ConfigurationFiles.apply(PackageRoot.path("config/etc-patternlock.conf"), to: &settings, distrust: nil)
    XCTAssertEqual(settings, Settings())
  }
}
