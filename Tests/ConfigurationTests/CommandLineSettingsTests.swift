import Configuration
import PatternCore
import XCTest

/// Command lines read against the settings table: the option forms, operands, `--exec`
/// taking the rest, and every refusal as one typed error.
final class CommandLineSettingsTests: XCTestCase {
  /// A configuration root with no files, so only the command line counts.
  let emptyRoot = "/nonexistent-patternlock-root"

  /// Parses as an ordinary user (1000), who may give every option; the refusals as
  /// root are PrivilegedKeyTests'.
  func parse(_ arguments: [String], _ command: Command) throws -> CommandLineSettings {
    try CommandLineSettings(arguments, for: command, configurationRoot: emptyRoot, effectiveUser: 1000)
  }

  func testOptionFormsOperandsAndFlags() throws {
    let parsed = try parse(["capture.yaml", "--grid", "4", "--rotate=90", "--stealth", "--device", "2", "-"], .replay)
    XCTAssertEqual(parsed.operands, ["capture.yaml", "-"])
    XCTAssertEqual(parsed.settings.layout.gridSize, 4)
    XCTAssertEqual(parsed.settings.layout.rotation, .clockwise90)
    XCTAssertTrue(parsed.settings.stealth)
    XCTAssertEqual(parsed.settings.recordedDevice, .number(2))
    XCTAssertEqual(parsed.settings.origins[.grid], .commandLine)
    XCTAssertFalse(try parse(["--stealth=no"], .run).settings.stealth)
  }

  func testAYesOrNoWordAfterAFlagIsItsValueNotAnOperand() throws {
    let parsed = try parse(["capture.yaml", "--fade-trail", "yes", "--show-wrong", "yes", "--input", "tap", "--stealth", "1"], .replay)
    XCTAssertEqual(parsed.operands, ["capture.yaml", "1"], "1 and 0 may be operands; only the words are taken")
    XCTAssertTrue(parsed.settings.fadeTrail)
    XCTAssertTrue(parsed.settings.showWrong)
    XCTAssertTrue(parsed.settings.stealth)
    XCTAssertEqual(parsed.settings.inputMode, .tap)
    XCTAssertTrue(parsed.settings.theme.stealth)
    XCTAssertEqual(try parse(["--input", "drag"], .run).settings.inputMode, .drag)
  }

  func testExecTakesTheRestOfTheLine() throws {
    let parsed = try parse(["--grid", "4", "--exec", "/usr/bin/weston", "--grid", "5"], .run)
    XCTAssertEqual(parsed.settings.exec, ["/usr/bin/weston", "--grid", "5"])
    XCTAssertEqual(parsed.settings.layout.gridSize, 4)
    XCTAssertEqual(try parse(["--exec", "none"], .run).settings.exec, [])
  }

  func testRefusalsAreOneLine() {
    let cases: [([String], Command, String)] = [
      (["--speed", "3"], .replay, "replay: unknown option '--speed' (try 'patternlock --help')"),
      (["--size", "800x480"], .run, "run: --size is an option of layout and replay, not of run (try 'patternlock --help')"),
      (["--grid"], .layout, "option --grid needs a value (see 'patternlock --help')"),
      (["--mode", "800by480"], .run, "command line: --mode cannot be '800by480': it takes 'preferred', WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480@60"),
      (["--exec", "weston"], .run, "command line: --exec cannot be 'weston': it takes 'none' or an absolute program path and its arguments, separated by spaces"),
      (["--min-dots", "10"], .setPattern, "command line: --min-dots: 10 is more than the 9 dots of a 3x3 grid (lower it or raise grid)"),
      (
        ["--idle-blank-s", "60", "--dim-after-s", "60"], .run,
        "command line: --dim-after-s: 60 is not less than idle-blank-s 60, so the screen would blank before it dims (lower dim-after-s, raise idle-blank-s, or set dim-after-s = 0)"
      ),
      (["--config", "/nonexistent/x.conf"], .check, "configuration file /nonexistent/x.conf does not exist (check the path given to --config)"),
    ]
    for (arguments, command, message) in cases {
      XCTAssertThrowsError(try parse(arguments, command), "\(arguments)") { error in
        XCTAssertEqual((error as? ConfigurationError)?.message, message)
      }
    }
  }

  func testDimmingBeforeBlankingIsAccepted() throws {
    XCTAssertEqual(try parse(["--idle-blank-s", "60", "--dim-after-s", "59"], .run).settings.dimAfterSeconds, 59)
    XCTAssertEqual(try parse(["--dim-after-s", "600"], .run).settings.dimAfterSeconds, 600, "without blanking any time dims")
    XCTAssertEqual(try parse(["--idle-blank-s", "30", "--dim-after-s", "0"], .run).settings.idleBlankSeconds, 30)
  }

  func testTheBrightnessBoundsMustBeInOrder() {
    var settings = Settings()
    XCTAssertNoThrow(try settings.set(.brightnessMinimum, to: "60", from: .commandLine))
    XCTAssertNoThrow(try settings.set(.brightnessMaximum, to: "50", from: .commandLine))
    XCTAssertThrowsError(try settings.validate()) { error in
      XCTAssertEqual(
        (error as? ConfigurationError)?.message,
        "command line: brightness-min: 60 is more than brightness-max 50 (lower brightness-min or raise brightness-max)")
    }
  }

  func testCommandsWithoutConfigurationReadNoFiles() throws {
    // layout and inject take no --config and read no file, whatever the root.
    XCTAssertNil(Setting(option: "--config", of: .layout))
    XCTAssertNil(Setting(option: "--config", of: .inject))
    XCTAssertFalse(Command.layout.readsConfiguration)
    XCTAssertEqual(try parse([], .layout).settings, Settings())
  }

  func testTheHelpListsEveryOptionOnceForEachOfItsRows() {
    let list = SettingHelp.optionList
    for setting in Setting.allCases {
      guard let option = setting.option else {
        XCTAssertFalse(list.contains("--" + setting.name), "\(setting.name) is file-only")
        continue
      }
      XCTAssertTrue(list.contains("  " + option), "\(option) missing from the help")
    }
    for command in Command.allCases {
      XCTAssertTrue(SettingHelp.optionsByCommand.contains("  " + command.name), "\(command.name) missing")
    }
  }
}
