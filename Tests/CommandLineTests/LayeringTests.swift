import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import XCTest

/// The order of the layers: /usr/share, /etc, /etc/patternlock.conf.d/*.conf (byte
/// order), --config, then the command line; each later one wins key by key.
final class LayeringTests: XCTestCase {
  var root: ConfigRoot!

  override func setUpWithError() throws { root = try ConfigRoot() }
  override func tearDown() { root.remove() }

  func testLaterLayersOverrideEarlierOnesKeyByKey() throws {
    let shared = try root.write("usr/share/patternlock/patternlock.conf", "[layout]\ngrid = 4\nhit-radius = 500\ndpi = 100\nrotate = 90\n[lock]\nfeedback-ms = 100\n")
    let etc = try root.write("etc/patternlock.conf", "# the administrator's\n[layout]\ngrid = 5\n")
    let first = try root.write("etc/patternlock.conf.d/10-first.conf", "[layout]\nhit-radius = 700\n")
    let second = try root.write("etc/patternlock.conf.d/20-second.conf", "[layout]\ndpi = 200\n")
    let extra = try root.write("extra.conf", "\n[layout]\nrotate = 180\n")

    XCTAssertEqual(try ConfigurationFiles.layerPaths(root: root.path), [shared, etc, first, second])
    let settings = try ConfigurationFiles.load(root: root.path, extra: extra)
    XCTAssertEqual(settings.layout.gridSize, 5)
    XCTAssertEqual(settings.layout.hitRadiusPerMille, 700)
    XCTAssertEqual(settings.layout.dotsPerInch, 200)
    XCTAssertEqual(settings.layout.rotation, .upsideDown)
    XCTAssertEqual(settings.feedbackMilliseconds, 100)
    XCTAssertEqual(settings.origins[.grid], .file(path: etc, line: 3))
    XCTAssertEqual(settings.origins[.hitRadius], .file(path: first, line: 2))
    XCTAssertEqual(settings.origins[.dpi], .file(path: second, line: 2))
    XCTAssertEqual(settings.origins[.rotate], .file(path: extra, line: 3))
    XCTAssertEqual(settings.origins[.feedbackMilliseconds], .file(path: shared, line: 7))
    XCTAssertNil(settings.origins[.stealth])
  }

  func testConfDFilesAreReadInByteOrderOfTheirNames() throws {
    try root.write("etc/patternlock.conf.d/9-a.conf", "[layout]\ngrid = 5\n")
    try root.write("etc/patternlock.conf.d/10-b.conf", "[layout]\ngrid = 4\n")
    try root.write("etc/patternlock.conf.d/Z.conf", "[layout]\ngrid = 6\n")
    // "10-b" < "9-a" < "Z" bytewise: 9-a is read after 10-b, Z after both.
    let names = try ConfigurationFiles.layerPaths(root: root.path).map { URL(fileURLWithPath: $0).lastPathComponent }
    XCTAssertEqual(names, ["10-b.conf", "9-a.conf", "Z.conf"])
    XCTAssertEqual(try ConfigurationFiles.load(root: root.path, extra: nil).layout.gridSize, 6)
  }

  func testConfDIgnoresBackupsHiddenFilesAndOtherNames() throws {
    try root.write("etc/patternlock.conf.d/10-x.conf~", "garbage\n")
    try root.write("etc/patternlock.conf.d/.10-x.conf", "garbage\n")
    try root.write("etc/patternlock.conf.d/README", "garbage\n")
    try root.write("etc/patternlock.conf.d/10-x.conf.dpkg-old", "garbage\n")
    XCTAssertEqual(try ConfigurationFiles.layerPaths(root: root.path), [])
    XCTAssertEqual(try ConfigurationFiles.load(root: root.path, extra: nil), Settings())
  }

  func testMissingLayersAreSkippedAndGiveTheBuiltInDefaults() throws {
    let settings = try ConfigurationFiles.load(root: root.path, extra: nil)
    XCTAssertEqual(settings, Settings())
    XCTAssertEqual(settings.layout, LayoutOptions())
    XCTAssertEqual(settings.throttle, .android)
  }

  func testAMissingConfigFileIsAnError() {
    let path = root.path + "/nowhere.conf"
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: path)) { error in
      XCTAssertEqual(error as? ConfigurationError, .missing(path: path))
    }
  }

  func testTheFirstBadLayerStopsLoadingBeforeLaterOnes() throws {
    let etc = try root.write("etc/patternlock.conf", "[layout]\ngrid = 12\n")
    try root.write("etc/patternlock.conf.d/10-x.conf", "[nonsense]\n")
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: nil)) { error in
      XCTAssertEqual(error as? ConfigurationError, .badValue(origin: .file(path: etc, line: 2), key: .grid, value: "12"))
    }
  }

  // The executable: PATTERNLOCK_CONFIG_ROOT, --config anywhere, options over files.

  func testCommandLineOptionsOverrideEveryFile() throws {
    let capture = Captures.path("l-shape-1236")
    try root.write("etc/patternlock.conf", "[layout]\ngrid = 4\n")
    let env = [ConfigurationFiles.rootVariable: root.path]
    let fromFile = try PatternlockBinary.run(["replay", capture], environment: env)
    XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
    let overridden = try PatternlockBinary.run(["replay", capture, "--grid", "3"], environment: env)
    let plain = try PatternlockBinary.run(["replay", capture], environment: [ConfigurationFiles.rootVariable: root.path + "/empty"])
    XCTAssertEqual(overridden.status, 0, overridden.stderr)
    XCTAssertEqual(plain.stdout, "{\"dots\":[1,2,3,6],\"result\":\"complete\"}\n")
    XCTAssertEqual(overridden.stdout, plain.stdout)
    XCTAssertNotEqual(fromFile.stdout, plain.stdout, "grid = 4 in /etc/patternlock.conf was not applied")
  }

  func testConfigOptionIsReadAfterTheLayersWhereverItStands() throws {
    let capture = Captures.path("l-shape-1236")
    try root.write("etc/patternlock.conf", "[layout]\ngrid = 3\n")
    let extra = try root.write("extra.conf", "[layout]\ngrid = 4\n")
    let env = [ConfigurationFiles.rootVariable: root.path]
    let before = try PatternlockBinary.run(["replay", "--config", extra, capture], environment: env)
    let after = try PatternlockBinary.run(["replay", capture, "--config=" + extra], environment: env)
    let withoutExtra = try PatternlockBinary.run(["replay", capture], environment: env)
    XCTAssertEqual(before.status, 0, before.stderr)
    XCTAssertEqual(before.stdout, after.stdout)
    XCTAssertNotEqual(before.stdout, withoutExtra.stdout, "--config was not applied")
  }

  func testConfiguredStateDirectoryIsUsedByTheVaultCommands() throws {
    let state = root.path + "/state"
    try root.write("etc/patternlock.conf", "[vault]\nstate-dir = \(state)\nargon-passes = 1\nargon-memory-mib = 8\n")
    let env = [ConfigurationFiles.rootVariable: root.path]
    let set = try PatternlockBinary.run(["set-pattern"], stdin: "6-3-8-1\n", environment: env)
    XCTAssertEqual(set.status, 0, set.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: state), "set-pattern did not use state-dir from the file")
    let check = try PatternlockBinary.run(["check"], stdin: "6-3-8-1\n", environment: env)
    XCTAssertEqual(check.status, 0, check.stderr)
    XCTAssertTrue(check.stdout.contains("\"result\":\"unlocked\""), check.stdout)
  }

  func testConfiguredThrottleTableDecidesTheLockout() throws {
    let state = root.path + "/state"
    try root.write("etc/patternlock.conf", "[vault]\nstate-dir = \(state)\nargon-passes = 1\nargon-memory-mib = 8\nthrottle = 0 1d\npermanent-after = 5\n")
    let env = [ConfigurationFiles.rootVariable: root.path]
    XCTAssertEqual(try PatternlockBinary.run(["set-pattern"], stdin: "6-3-8-1\n", environment: env).status, 0)
    let first = try PatternlockBinary.run(["check"], stdin: "1-2-3-4\n", environment: env)
    XCTAssertEqual(first.status, 3, first.stderr)
    let second = try PatternlockBinary.run(["check"], stdin: "1-2-3-5\n", environment: env)
    XCTAssertEqual(second.status, 3, second.stderr)
    // Android's table would allow a third try at once; this one waits a day.
    let third = try PatternlockBinary.run(["check"], stdin: "6-3-8-1\n", environment: env)
    XCTAssertEqual(third.status, 5, third.stdout + third.stderr)
    XCTAssertTrue(third.stdout.contains("\"retry_in_s\":86400"), third.stdout)
  }
}
