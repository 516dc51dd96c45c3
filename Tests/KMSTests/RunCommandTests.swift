import CommandTestSupport
import Foundation
import XCTest

/// Runs the built `patternlock run` where there is no DRM device (this host, CI).
final class RunCommandTests: XCTestCase {
  func run(_ arguments: [String]) throws -> CommandResult { try PatternlockBinary.run(arguments) }

  func testRunWithoutDRMSaysSoAndPointsToTheEmulatedBoard() throws {
    if FileManager.default.fileExists(atPath: "/dev/dri") {
      throw XCTSkip("this machine has /dev/dri; the no-DRM message cannot be provoked here")
    }
    let result = try run(["run", "--pattern", "1-2-3-6"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "patternlock: no DRM device found in /dev/dri (no display driver is loaded here; on a desktop or in a container try the emulated board: scripts/demo)\n")
    XCTAssertEqual(result.stdout, "")
  }

  func testRunWithANonDRMDeviceNamesIt() throws {
    let result = try run(["run", "--pattern", "1-2-3-6", "--device", "/dev/null"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "patternlock: /dev/null is not a display device (it has no connectors: a render-only GPU); choose the display card with --device\n")
  }

  func testRunWithoutAnEnrolledPatternRefusesBeforeTouchingTheDisplay() throws {
    let empty = try makeTemporaryDirectory(prefix: "no-pattern", permissions: 0o700)
    let result = try run(["run", "--state-dir", empty.path, "--device", "/dev/null"])
    XCTAssertEqual(result.status, 6, result.stderr)
    XCTAssertTrue(result.stderr.hasPrefix("patternlock: "), result.stderr)
    XCTAssertTrue(result.stderr.contains("set-pattern"), "the message says how to set one: \(result.stderr)")
    XCTAssertFalse(result.stderr.contains("/dev/null"), "the display is not opened before the secret is found")
    XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1)
  }

  func testBadRunOptionsAreBadInput() throws {
    let mode = try run(["run", "--mode", "800by480"])
    XCTAssertEqual(mode.status, 2)
    XCTAssertEqual(mode.stderr, "patternlock: --mode takes WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480 or 1920x1080@60, not '800by480'\n")
    let pattern = try run(["run", "--pattern", "1-2-2"])
    XCTAssertEqual(pattern.status, 2)
    XCTAssertEqual(pattern.stderr, "patternlock: --pattern takes distinct dot numbers joined by '-', such as 1-2-3-6, not '1-2-2'\n")
    let calibration = try run(["run", "--calibration", "1 0 0 0 1"])
    XCTAssertEqual(calibration.status, 2)
    XCTAssertTrue(calibration.stderr.hasPrefix("patternlock: --calibration takes six numbers"), calibration.stderr)
  }

  func testInjectWithoutUinputSaysHowToLoadIt() throws {
    let name = try XCTUnwrap(try Captures.names().first, "no capture in Tests/Captures")
    let missing = "/nonexistent/uinput"
    let result = try run(["inject", Captures.path(name), "--uinput", missing, "--wait", "0"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr, "patternlock: cannot open \(missing): No such file or directory (load the uinput module: 'sudo modprobe uinput')\n")
  }
}
