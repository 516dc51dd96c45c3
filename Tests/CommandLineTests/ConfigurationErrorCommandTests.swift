import CommandTestSupport
import Configuration
import Foundation
import XCTest

/// A bad configuration file as every command meets it: one line naming file, line and
/// key, exit status 2, nothing on standard output.
final class ConfigurationErrorCommandTests: XCTestCase {
  var root: ConfigRoot!

  override func setUpWithError() throws { root = try ConfigRoot() }
  override func tearDown() { root.remove() }

  func testExecutablePrintsOneLineAndExitsWithStatus2() throws {
    let etc = try root.write("etc/patternlock.conf", "[layout]\ngrid = 3\n[display]\nmode = huge\n")
    for command in [["replay", "x.yaml"], ["check"], ["set-pattern"], ["reset-attempts"], ["run"]] {
      let result = try PatternlockBinary.run(command, environment: [ConfigurationFiles.rootVariable: root.path])
      XCTAssertEqual(result.status, 2, "\(command): \(result.stderr)")
      XCTAssertEqual(result.stderr, "patternlock: \(etc):4: mode cannot be 'huge': it takes 'preferred', WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480@60\n", "\(command)")
      XCTAssertEqual(result.stdout, "")
    }
  }

  func testABadColourIsOneLineNamingFileLineAndKeyForRunAndReplay() throws {
    let etc = try root.write("etc/patternlock.conf", "[theme]\ntheme = light\ncolour-text = #1C232\n")
    for command in [["replay", "x.yaml"], ["run"], ["enroll"]] {
      let result = try PatternlockBinary.run(command, environment: [ConfigurationFiles.rootVariable: root.path])
      XCTAssertEqual(result.status, 2, "\(command): \(result.stderr)")
      XCTAssertEqual(
        result.stderr,
        "patternlock: \(etc):3: colour-text cannot be '#1C232': it takes 'theme' (the theme's colour) or #RRGGBB, or #RRGGBBAA with an opacity, in hexadecimal, such as #20D2FE\n",
        "\(command)")
    }
  }
}
