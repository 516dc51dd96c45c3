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
}
