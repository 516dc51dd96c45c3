import CommandTestSupport
import Foundation
import XCTest

/// `patternlock --help` against the manual page: every option and command it names is
/// documented there.
final class HelpTests: XCTestCase {
  /// Roff text with its escapes for '-' undone, so `\-\-grid` reads `--grid`.
  func plainText(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
  }

  func testEveryOptionInHelpIsInTheManualPage() throws {
    let help = try PatternlockBinary.run(["--help"])
    XCTAssertEqual(help.status, 0)
    let options = Set(help.stdout.split(whereSeparator: { " \n(),;'\"=[]".contains($0) }).filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
    XCTAssertGreaterThan(options.count, 15, "too few options found in --help: \(options)")
    let page = try plainText(PackageRoot.url("docs/man/patternlock.1"))
    for option in options.sorted() {
      XCTAssertTrue(page.contains(option), "\(option) is in --help but not in docs/man/patternlock.1")
    }
    for command in ["layout", "replay", "run", "inject", "set-pattern", "check", "reset-attempts"] {
      XCTAssertTrue(help.stdout.contains("  \(command)"), "\(command) missing from --help")
      XCTAssertTrue(page.contains(".B \(command)") || page.contains(".BI \"\(command) "), "command \(command) has no entry in patternlock.1")
    }
  }

  func testEveryCommandPrintsItsOwnHelpWithEachOfItsOptions() throws {
    for command in ["layout", "replay", "run", "inject", "enroll", "set-pattern", "check", "reset-attempts", "status", "lock", "log"] {
      for word in ["--help", "-h"] {
        let help = try PatternlockBinary.run([command, word], stdin: "1-2-3-6\n")
        XCTAssertEqual(help.status, 0, "\(command) \(word): \(help.stderr)")
        XCTAssertEqual(help.stderr, "")
        XCTAssertTrue(help.stdout.hasPrefix("usage: patternlock \(command) "), help.stdout)
        let general = try PatternlockBinary.run(["--help"]).stdout
        let listed = general.split(separator: "\n").first { $0.hasPrefix("  \(command) ") && $0.contains("--") }
        for option in (listed ?? "").split(separator: " ").filter({ $0.hasPrefix("--") }) {
          XCTAssertTrue(help.stdout.contains("  \(option)"), "\(command) --help does not describe \(option)")
        }
      }
    }
    let checkHelp = try PatternlockBinary.run(["check", "--help"]).stdout
    XCTAssertTrue(checkHelp.contains("8 not judged"), checkHelp)
  }
}
