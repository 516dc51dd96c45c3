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
    let result = try run(["run", "--pattern", "1-2-3-6", "--display-wait-s", "0"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "patternlock: no DRM device found in /dev/dri (no display driver is loaded here; on a desktop or in a container try the emulated board: scripts/demo)\n")
    XCTAssertEqual(result.stdout, "")
  }

  func testRunWaitsForADisplayToAppearThenSaysThereIsNone() throws {
    if FileManager.default.fileExists(atPath: "/dev/dri") || FileManager.default.fileExists(atPath: "/dev/fb0") {
      throw XCTSkip("this machine has a display device; the wait cannot end in the no-DRM message here")
    }
    let result = try run(["run", "--pattern", "1-2-3-6", "--display-wait-s", "1"])
    XCTAssertEqual(result.status, 1)
    let noDevice = "patternlock: no DRM device found in /dev/dri (no display driver is loaded here; on a desktop or in a container try the emulated board: scripts/demo)"
    XCTAssertEqual(
      result.stderr,
      noDevice + "; waiting up to 1 s for a display driver to bind (display-wait-s)\n" + noDevice + "\n")
  }

  /// `--headless`: the whole start to the first frame, without a display, then the
  /// lock ends as a stop ends it: never 0, never "unlocked".
  func testHeadlessDrawsTheFirstFrameAndStops() throws {
    let result = try run(["run", "--pattern", "1-2-3-6", "--headless", "320x240", "--timing"])
    XCTAssertEqual(result.status, 1, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "patternlock: showing the lock on memory (headless, 320x240, xrgb8888, fbdev)")
    XCTAssertTrue(lines.contains("timing: flip-damage=320x240+0+0"), result.stdout)
    XCTAssertTrue(lines.contains { $0.hasPrefix("timing: start-to-first-flip-us=") }, result.stdout)
    XCTAssertEqual(lines.last, "patternlock: stopped by signal 15; display and console restored")
    XCTAssertFalse(result.stdout.contains("unlocked"))
    XCTAssertEqual(result.stderr, "")
  }

  func testHeadlessRefusesARefreshRate() throws {
    let result = try run(["run", "--pattern", "1-2-3-6", "--headless", "800x480@60"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stderr,
      "patternlock: run: --headless takes WIDTHxHEIGHT up to 8192x8192 without a refresh rate, such as 800x480, not 800x480@60\n")
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

  func testEnrollFirstWithNoPatternGoesOnToTheDisplayToEnrol() throws {
    let parent = try makeTemporaryDirectory(prefix: "enroll-first", permissions: 0o700)
    let state = parent.appendingPathComponent("state")
    let result = try run(["run", "--enroll-first", "--state-dir", state.path, "--device", "/dev/null"])
    // No pattern: not the exit-6 refusal but the enrolment screen, which needs the display.
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(
      result.stderr,
      "patternlock: no pattern is set in \(state.path): enrolling one first (enroll-first)\n"
        + "patternlock: /dev/null is not a display device (it has no connectors: a render-only GPU); choose the display card with --device\n")
    var isDirectory: ObjCBool = false
    XCTAssertTrue(FileManager.default.fileExists(atPath: state.path, isDirectory: &isDirectory) && isDirectory.boolValue,
                  "the state directory is made (0700) before the display is taken, as by enroll")
  }

  func testEnrollFirstFromTheConfigurationFileToo() throws {
    let parent = try makeTemporaryDirectory(prefix: "enroll-first-conf", permissions: 0o700)
    let config = parent.appendingPathComponent("patternlock.conf")
    try "[vault]\nenroll-first = yes\n".write(to: config, atomically: true, encoding: .utf8)
    let result = try run(["run", "--config", config.path, "--state-dir", parent.appendingPathComponent("state").path, "--device", "/dev/null"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("enrolling one first"), result.stderr)
  }

  func testEnrollFirstNeverReplacesADamagedPattern() throws {
    let state = try makeTemporaryDirectory(prefix: "damaged-pattern", permissions: 0o700)
    let pattern = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", state.path, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: "6-3-8-1\n")
    XCTAssertEqual(pattern.status, 0, pattern.stderr)
    let files = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0 != "attempts" && $0 != "lock" && $0 != "audit.log" }
    XCTAssertEqual(files.count, 1, "one pattern file besides the attempts, the lock and the audit log: \(files)")
    let file = state.appendingPathComponent(files[0])
    try Data("garbage\n".utf8).write(to: file)
    let result = try run(["run", "--enroll-first", "--state-dir", state.path, "--device", "/dev/null"])
    XCTAssertEqual(result.status, 6, "a damaged pattern fails closed, it is not an invitation to enrol: \(result.stderr)")
    XCTAssertFalse(result.stderr.contains("enrolling"), result.stderr)
    XCTAssertFalse(result.stderr.contains("/dev/null"), "refused before the display is opened")
  }

  func testEnrollFirstWithAPatternSetLocksAsUsual() throws {
    let state = try makeTemporaryDirectory(prefix: "pattern-set", permissions: 0o700)
    let pattern = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", state.path, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: "6-3-8-1\n")
    XCTAssertEqual(pattern.status, 0, pattern.stderr)
    let result = try run(["run", "--enroll-first", "--state-dir", state.path, "--device", "/dev/null"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "patternlock: /dev/null is not a display device (it has no connectors: a render-only GPU); choose the display card with --device\n")
  }

  func testBadRunOptionsAreBadInput() throws {
    let mode = try run(["run", "--mode", "800by480"])
    XCTAssertEqual(mode.status, 2)
    XCTAssertEqual(mode.stderr, "patternlock: command line: --mode cannot be '800by480': it takes 'preferred', WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480@60\n")
    let pattern = try run(["run", "--pattern", "1-2-2"])
    XCTAssertEqual(pattern.status, 2)
    XCTAssertEqual(pattern.stderr, "patternlock: command line: --pattern cannot be '1-2-2': it takes distinct dot numbers joined by '-', such as 1-2-3-6\n")
    let calibration = try run(["run", "--calibration", "1 0 0 0 1"])
    XCTAssertEqual(calibration.status, 2)
    XCTAssertTrue(calibration.stderr.hasPrefix("patternlock: command line: --calibration cannot be '1 0 0 0 1': it takes 'none' or six numbers"), calibration.stderr)
  }

  func testInjectWithoutUinputSaysHowToLoadIt() throws {
    let name = try XCTUnwrap(try Captures.names().first, "no capture in Tests/Captures")
    let missing = "/nonexistent/uinput"
    let result = try run(["inject", Captures.path(name), "--uinput", missing, "--wait", "0"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr, "patternlock: cannot open \(missing): No such file or directory (load the uinput module: 'sudo modprobe uinput')\n")
  }

  /// Whoever may start `run` must not unlock what the administrator set up for the
  /// enrolled pattern with a pattern of their own choosing.
  func testADevelopmentPatternNeverOpensExecOrAKiosk() throws {
    for (key, value) in [("exec", "/bin/echo opened"), ("kiosk-unit", "patternlock-kiosk.service")] {
      let root = try ConfigRoot()
      defer { root.remove() }
      let file = try root.write("etc/patternlock.conf", "[lock]\n\(key) = \(value)\n")
      let result = try PatternlockBinary.run(
        ["run", "--pattern", "1-2-3-6", "--device", "/dev/null"], environment: ["PATTERNLOCK_CONFIG_ROOT": root.path])
      XCTAssertEqual(result.status, 2, result.stderr)
      XCTAssertEqual(
        result.stderr,
        "patternlock: \(file):2: \(key): --pattern is for development and never opens this; leave out --pattern to unlock with the enrolled pattern\n")
    }
  }
}
