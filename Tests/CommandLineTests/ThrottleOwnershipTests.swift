import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import XCTest

/// The throttle belongs to the administrator: only root-owned system files set it,
/// never `--config`, a file others could write, or (in release builds, which ignore
/// PATTERNLOCK_CONFIG_ROOT) a relocated root.
final class ThrottleOwnershipTests: XCTestCase {
  var root: ConfigRoot!

  override func setUpWithError() throws { root = try ConfigRoot() }
  override func tearDown() { root.remove() }

  func testThrottleInAConfigFileIsRefusedNamingTheLine() throws {
    for key in ["throttle = 0", "permanent-after = 1000"] {
      let extra = try root.write("lax.conf", "[vault]\n\(key)\n")
      XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: extra)) { error in
        guard case .systemOnlyKey(let path, let line, _, let why) = error as? ConfigurationError else { return XCTFail("\(error)") }
        XCTAssertEqual(path, extra)
        XCTAssertEqual(line, 2)
        XCTAssertEqual(why, "this is a --config file")
      }
    }
  }

  func testCheckWithALaxConfigIsRefusedAndTheLockoutStands() throws {
    let state = root.path + "/state"
    try root.write("etc/patternlock.conf", "[vault]\nstate-dir = \(state)\nargon-passes = 1\nargon-memory-mib = 8\n")
    let env = [ConfigurationFiles.rootVariable: root.path]
    XCTAssertEqual(try PatternlockBinary.run(["set-pattern"], stdin: "6-3-8-1\n", environment: env).status, 0)
    for (n, wrong) in ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "2-5-8-9"].enumerated() {
      let run = try PatternlockBinary.run(["check"], stdin: wrong + "\n", environment: env)
      XCTAssertEqual(run.status, 3, "failure \(n + 1): \(run.stderr)")
    }
    let lax = try root.write("lax.conf", "[vault]\nthrottle = 0\npermanent-after = 1000\n")
    let run = try PatternlockBinary.run(["check", "--config", lax], stdin: "6-3-8-1\n", environment: env)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertEqual(run.stdout, "")
    XCTAssertEqual(
      run.stderr,
      "patternlock: \(lax):2: 'throttle' is set only in the root-owned system configuration (/usr/share/patternlock/patternlock.conf, /etc/patternlock.conf, /etc/patternlock.conf.d/*.conf), and this is a --config file (remove the line here)\n")
    XCTAssertEqual(try PatternlockBinary.run(["check"], stdin: "6-3-8-1\n", environment: env).status, 5, "still locked out")
  }

  func testOnlyFilesOfTrustedOwnersNobodyElseMayWriteSetTheThrottle() throws {
    let file = try root.write("etc/patternlock.conf", "[vault]\nthrottle = 0\n")
    XCTAssertEqual(try ConfigurationFiles.load(root: root.path, extra: nil).throttle.delaysSeconds, [0])
    chmod(file, 0o664)
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: nil)) { error in
      XCTAssertEqual(
        error as? ConfigurationError,
        .systemOnlyKey(path: file, line: 2, key: .throttle, why: "group or others may write this file (chmod go-w \(file))"))
    }
    chmod(file, 0o644)
    guard getuid() == 0 else { throw XCTSkip("giving the file to another user needs root") }
    chown(file, 65534, 65534)
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: nil)) { error in
      XCTAssertEqual(
        error as? ConfigurationError,
        .systemOnlyKey(path: file, line: 2, key: .throttle, why: "this file is owned by user 65534, not root (chown root:root \(file))"))
    }
  }

  func testReleaseBuildsIgnoreTheTestRootAndReadTheLayersUnderSlash() {
    XCTAssertEqual(ConfigurationFiles.root(testRoot: root.path, isDebugBuild: false), "/", "a release build reads / whatever the variable says")
    XCTAssertEqual(ConfigurationFiles.root(testRoot: root.path, isDebugBuild: true), root.path)
    XCTAssertEqual(ConfigurationFiles.root(testRoot: "", isDebugBuild: true), "/")
    XCTAssertEqual(ConfigurationFiles.root(testRoot: nil, isDebugBuild: true), "/")
  }

  func testOnlyRootOwnsTheTrustedConfigurationUnderSlashAndInReleaseBuilds() {
    XCTAssertEqual(ConfigurationTrust(command: .check, effectiveUser: 1000, root: "/", isDebugBuild: true).trustedOwners, [0])
    XCTAssertEqual(ConfigurationTrust(command: .check, effectiveUser: 1000, root: root.path, isDebugBuild: false).trustedOwners, [0])
    XCTAssertEqual(ConfigurationTrust(command: .check, effectiveUser: 1000, root: root.path, isDebugBuild: true).trustedOwners, [0, 1000])
    XCTAssertEqual(ConfigurationTrust(command: .check, effectiveUser: 0, root: root.path, isDebugBuild: true).trustedOwners, [0])
  }

  func testApplyingAFileWithoutSayingItIsTrustedRefusesTheThrottle() throws {
    let file = try root.write("some.conf", "[vault]\npermanent-after = 3\n")
    var settings = Settings()
    XCTAssertThrowsError(try ConfigurationFiles.apply(file, to: &settings)) { error in
      guard case .systemOnlyKey = error as? ConfigurationError else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(settings.throttle, .android)
  }
}
