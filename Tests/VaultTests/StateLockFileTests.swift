import CShim
import CommandTestSupport
import Foundation
import Vault
import VaultTestSupport
import XCTest

/// The state directory's `lock` file is checked on its descriptor before it is
/// locked: a FIFO, a symbolic link, a file others may open or one another user owns is
/// refused, and nothing is judged (fail closed); a missing one is made, mode 0600.
final class StateLockFileTests: XCTestCase {
  var statePath: String!
  var lockPath: String { statePath + "/lock" }

  override func setUpWithError() throws {
    statePath = try makeTemporaryDirectory(prefix: "state-lock", permissions: 0o700).appendingPathComponent("state").path
    try VaultTestSupport.enrol([1, 2, 3, 6], in: statePath)
  }

  /// The error taking the lock gives, or nil when it is taken.
  func lockError() throws -> VaultError? {
    let directory = try StateDirectory(opening: statePath, creating: false)
    return VaultTestSupport.error { () throws(VaultError) in
      let held = try directory.lockExclusively(waitMicroseconds: 100_000)
      held.release()
    }
  }

  func testAMissingLockFileIsMadeWithMode0600() throws {
    try? FileManager.default.removeItem(atPath: lockPath)
    XCTAssertNil(try lockError())
    XCTAssertEqual(try VaultTestSupport.permissions(lockPath), 0o600)
  }

  func testAFIFOIsRefusedWithoutHanging() throws {
    try FileManager.default.removeItem(atPath: lockPath)
    XCTAssertEqual(mkfifo(lockPath, 0o600), 0)
    XCTAssertEqual(try lockError(), .stateLockUnusable(path: lockPath, problem: "it is a device, pipe or socket, not a regular file"))
  }

  func testASymbolicLinkIsRefused() throws {
    try FileManager.default.removeItem(atPath: lockPath)
    try FileManager.default.createSymbolicLink(atPath: lockPath, withDestinationPath: statePath + "/pattern")
    XCTAssertEqual(try lockError(), .stateLockUnusable(path: lockPath, problem: "it is a symbolic link"))
  }

  func testAFileOthersMayOpenIsRefused() throws {
    XCTAssertNil(try lockError())
    for mode: mode_t in [0o666, 0o640, 0o604] {
      chmod(lockPath, mode)
      XCTAssertEqual(
        try lockError(), .stateLockUnusable(path: lockPath, problem: "its mode is 0\(String(mode, radix: 8)), not 0600"))
    }
  }

  func testAFileOfAnotherUserIsRefused() throws {
    guard pl_geteuid() == 0 else { throw XCTSkip("giving the lock file to another user needs root") }
    XCTAssertNil(try lockError())
    chown(lockPath, 65534, 65534)
    XCTAssertEqual(try lockError(), .stateLockUnusable(path: lockPath, problem: "it is owned by user 65534, not 0"))
  }

  /// `check` does not judge without a trustworthy lock: exit 8, one line, nothing counted.
  func testCheckDoesNotJudgeWithAnUntrustworthyLock() throws {
    XCTAssertNil(try lockError())
    chmod(lockPath, 0o666)
    let result = try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: "1-2-3-4\n")
    XCTAssertEqual(result.status, 8, result.stderr)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr,
      "patternlock: the state lock \(lockPath) cannot be trusted: its mode is 0666, not 0600, so the attempt was not judged (remove it: rm \(lockPath); the next attempt makes a new one, mode 0600)\n")
    try FileManager.default.removeItem(atPath: lockPath)
    let right = try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: "1-2-3-6\n")
    XCTAssertEqual(right.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n", "the wrong try was not counted either: \(right.stderr)")
  }
}
