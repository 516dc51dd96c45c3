import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import Raster
import Scene
import Screen
import Vault
import XCTest

@testable import LockProgram

/// `run`'s judge with a TPM-bound pattern and a real software TPM: the lock screen
/// unlocks only through the TPM, says so when the TPM does not answer (no storage
/// error, no unlock), retries, and judges again once the TPM is back.
final class TPMLockScreenTests: XCTestCase {
  private let second: UInt64 = 1_000_000

  @discardableResult
  private func enter(_ dots: [Int], at time: UInt64, on screen: inout LockScreen<XRGB8888>, judge gate: inout VaultGate) -> GestureOutcome? {
    for dot in dots { screen.receive(.key(.dot(dot)), at: time, judge: &gate) }
    return screen.receive(.key(.submit), at: time, judge: &gate)
  }

  func testTheLockScreenNamesATPMThatDoesNotAnswerAndJudgesAgainOnceItIsBack() throws {
    guard SoftwareTPM.isInstalled else { throw XCTSkip("swtpm is not installed (scripts/install-deps installs it)") }
    let sandbox = try makeTemporaryDirectory(prefix: "tpm-screen", permissions: 0o755)
    let tpmState = sandbox.appendingPathComponent("tpm")
    var tpm = try SoftwareTPM(in: tpmState)
    defer { tpm.stop() }
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[vault]\ntpm = required\ntpm-tcti = \(tpm.tcti)\n")
    let statePath = sandbox.appendingPathComponent("state").path
    let set = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", statePath, "--argon-passes", "1", "--argon-memory-mib", "1"], stdin: "6-3-8-1",
      environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(set.status, 0, set.stderr)

    var gate = try VaultGate(stateDirectory: statePath, throttle: .android, tcti: tpm.tcti, startingAt: 0)
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()))
    enter([1, 2, 3, 4], at: 10 * second, on: &screen, judge: &gate)
    XCTAssertFalse(screen.unlocked)

    tpm.stop()
    screen.advance(to: 20 * second, judge: &gate)
    XCTAssertNotNil(enter([6, 3, 8, 1], at: 20 * second, on: &screen, judge: &gate))
    XCTAssertFalse(screen.unlocked, "the right pattern never unlocks without its TPM")
    screen.advance(to: 21 * second, judge: &gate)
    XCTAssertEqual(screen.controller.state.prompt, .tpmError)
    XCTAssertFalse(screen.controller.isAcceptingInput)
    screen.advance(to: 22 * second, judge: &gate)
    XCTAssertEqual(screen.controller.state.prompt, .tpmError, "still no TPM at the retry")

    tpm = try SoftwareTPM(in: tpmState, port: tpm.port)
    screen.advance(to: 24 * second, judge: &gate)
    XCTAssertTrue(screen.controller.isAcceptingInput, "the TPM answers again: attempts are judged again")
    XCTAssertEqual(screen.controller.state.prompt, .drawPattern)
    enter([6, 3, 8, 1], at: 25 * second, on: &screen, judge: &gate)
    XCTAssertTrue(screen.unlocked)
  }

  /// `enroll` (the enrolment screen) binds the drawn pattern to the TPM as set-pattern
  /// does, and the lock that follows judges it there.
  func testTheEnrolmentScreenBindsThePatternToTheTPM() throws {
    guard SoftwareTPM.isInstalled else { throw XCTSkip("swtpm is not installed (scripts/install-deps installs it)") }
    let sandbox = try makeTemporaryDirectory(prefix: "tpm-enrol", permissions: 0o755)
    let tpm = try SoftwareTPM(in: sandbox.appendingPathComponent("tpm"))
    defer { tpm.stop() }
    var settings = Settings()
    settings.tpmUse = .required
    settings.tpmTCTI = tpm.tcti
    let statePath = sandbox.appendingPathComponent("state").path
    var enrolment = try EnrollmentGate(
      stateDirectory: statePath, gridSize: 3, minimumDots: 4, cost: try HashCost(passes: 1, memoryBytes: 8 << 20),
      settings: settings)
    let drawn = GestureOutcome(dots: DotSequence([6, 3, 8, 1]), result: .complete, timeMicroseconds: 0)
    _ = enrolment.judge(drawn, at: 0)
    XCTAssertTrue(enrolment.judge(drawn, at: 0).unlocks, "confirmed and saved")
    let stored = try EnrolledPattern.load(from: try StateDirectory(opening: statePath, creating: false))
    XCTAssertNotNil(stored.tpmEnrolment, "bound to the TPM, no hash")
    XCTAssertFalse(stored.matches(DotSequence([6, 3, 8, 1])), "nothing but the TPM can judge it")

    var gate = try VaultGate(justEnrolledIn: statePath, throttle: .android, tcti: tpm.tcti)
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()))
    enter([6, 3, 8, 1], at: 1 * second, on: &screen, judge: &gate)
    XCTAssertTrue(screen.unlocked)
  }
}
