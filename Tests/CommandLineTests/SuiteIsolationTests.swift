import CommandTestSupport
import Foundation
import XCTest

/// The suite never reads this machine's own configuration: the scripts that run it give
/// the test process an empty configuration root of its own (`swift test` with
/// PATTERNLOCK_CONFIG_ROOT), which the in-process tests read and the child processes
/// inherit.
final class SuiteIsolationTests: XCTestCase {
  func testTheSuiteScriptsGiveTheTestsAConfigurationRootOfTheirOwn() throws {
    for script in ["scripts/test", "scripts/test-asan"] {
      let text = try String(contentsOf: PackageRoot.url.appendingPathComponent(script), encoding: .utf8)
      XCTAssertNotNil(
        text.range(of: "PATTERNLOCK_CONFIG_ROOT=$config_root swift test --skip-build"), "\(script) gives the tests no root of their own")
      XCTAssertNotNil(text.range(of: "chmod 755 \"$config_root\""), "\(script): tests run some commands as another user")
    }
  }

  func testThisRunHasItsOwnRootWhenTheScriptsRunIt() throws {
    guard let root = ProcessInfo.processInfo.environment[ConfigRoot.variable] else {
      throw XCTSkip("run outside scripts/test: no root of the suite's own")
    }
    XCTAssertNotEqual(root, "/")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root), [], "the suite's root is empty")
  }
}
