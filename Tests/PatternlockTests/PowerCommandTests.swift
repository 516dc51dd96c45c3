import CommandTestSupport
import Foundation
import PatternCore
import XCTest

@testable import LockProgram

/// The power action's seam: the configured program is run once, directly (no shell),
/// and the lock's exit status is never success, whether it worked or not.
final class PowerCommandTests: XCTestCase {
  private func fakeSystemctl(exitingWith status: Int) throws -> (program: String, log: String) {
    let dir = try makeTemporaryDirectory()
    let log = dir.appendingPathComponent("calls").path
    let program = dir.appendingPathComponent("fake systemctl").path
    // One line per call: $0 and each argument between brackets.
    try "#!/bin/sh\nprintf '[%s]' \"$0\" \"$@\" >> '\(log)'\necho >> '\(log)'\nexit \(status)\n"
      .write(toFile: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
    return (program, log)
  }

  func testPoweroffRunsTheProgramOnceWithoutAShellAndNeverExitsZero() throws {
    let fake = try fakeSystemctl(exitingWith: 0)
    let status = PowerCommand.carryOut(.poweroff, program: fake.program, waitingSeconds: 0)
    XCTAssertNotEqual(status, .success)
    // A path with a space reached exec as one word: no shell split it.
    XCTAssertEqual(try String(contentsOfFile: fake.log, encoding: .utf8), "[\(fake.program)][poweroff]\n")
  }

  func testRebootAsksForReboot() throws {
    let fake = try fakeSystemctl(exitingWith: 0)
    XCTAssertNotEqual(PowerCommand.carryOut(.reboot, program: fake.program, waitingSeconds: 0), .success)
    XCTAssertEqual(try String(contentsOfFile: fake.log, encoding: .utf8), "[\(fake.program)][reboot]\n")
  }

  func testAFailingOrMissingSystemctlLeavesTheLockClosed() throws {
    let fake = try fakeSystemctl(exitingWith: 3)
    XCTAssertEqual(PowerCommand.carryOut(.poweroff, program: fake.program, waitingSeconds: 0), .failure)
    XCTAssertEqual(PowerCommand.carryOut(.poweroff, program: "/nonexistent/systemctl", waitingSeconds: 0), .failure)
  }

  func testTheOverrideIsHonouredInDebugBuilds() throws {
    setenv(PowerCommand.overrideVariable, "/opt/fake/systemctl", 1)
    defer { unsetenv(PowerCommand.overrideVariable) }
    #if DEBUG
    XCTAssertEqual(PowerCommand.program(), "/opt/fake/systemctl")
    #else
    XCTAssertEqual(PowerCommand.program(), PowerCommand.systemctl)
    #endif
    setenv(PowerCommand.overrideVariable, "relative/systemctl", 1)
    XCTAssertEqual(PowerCommand.program(), PowerCommand.systemctl, "only an absolute path")
  }
}
