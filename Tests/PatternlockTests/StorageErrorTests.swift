import LockEvents
import CShim
import Foundation
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import Vault
import XCTest

@testable import LockProgram

/// `run` when the attempts cannot be recorded (full disk, SD card remounted read-only):
/// nothing is judged, the screen says so and stays locked, the storage is tried again
/// every two seconds, and attempts are judged again once a write succeeds.
final class StorageErrorTests: XCTestCase {
  /// A state store in memory whose writes can be made to fail, as a full or read-only
  /// file system makes them fail (the scripts/test-throttle stage does it for real).
  final class FlakyStore: AttemptStore {
    var pattern: EnrolledPattern
    var record = AttemptRecord.clean
    var writesFail = false
    var writes = 0
    let attemptsPath = "/test/attempts"

    init(pattern: EnrolledPattern) { self.pattern = pattern }
    func beginAttempt() throws(VaultError) {}
    func endAttempt() {}
    func loadPattern() throws(VaultError) -> EnrolledPattern { pattern }
    func loadAttempts() -> AttemptsState { .intact(record) }
    func loadCredentials() throws(VaultError) -> CredentialFile { .none }
    func saveAttempts(_ record: AttemptRecord) throws(VaultError) {
      writes += 1
      if writesFail { throw .systemCall(call: "create", path: attemptsPath, errno: .noSpace) }
      self.record = record
    }
    var auditFails = false
    var audited: [AuditEntry] = []
    func appendAudit(_ entry: AuditEntry) throws(VaultError) {
      if auditFails { throw .auditNotWritten(path: "/test/audit.log", call: "write", errno: .noSpace) }
      audited.append(entry)
    }
    var patternCheck: PatternCheck?
    func loadPatternCheck() -> PatternCheck? { patternCheck }
    func savePatternCheck(_ check: PatternCheck) throws(VaultError) { patternCheck = check }
  }

  private let second: UInt64 = 1_000_000

  private func outcome(_ dots: [Int], at time: UInt64) -> GestureOutcome {
    GestureOutcome(dots: DotSequence(dots), result: .complete, timeMicroseconds: time)
  }

  /// Types `dots` and Enter at `time`: a finished pattern the screen has judged.
  @discardableResult
  private func enter(_ dots: [Int], at time: UInt64, on screen: inout LockScreen<XRGB8888>, judge gate: inout VaultGate) -> GestureOutcome? {
    for dot in dots { screen.receive(.key(.dot(dot)), at: time, judge: &gate) }
    return screen.receive(.key(.submit), at: time, judge: &gate)
  }

  /// An audit entry that cannot be written is not judged, as a count that cannot be:
  /// the right pattern does not unlock and the screen says storage.
  func testUnwritableAuditLogIsNotJudged() throws {
    let enrolled = try EnrolledPattern(
      dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: try HashCost(passes: 1, memoryBytes: 8192))
    let store = FlakyStore(pattern: enrolled)
    var gate = try VaultGate(store: store, throttle: .android, clock: .live, startingAt: 0)
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()))
    store.auditFails = true
    XCTAssertNotNil(enter([6, 3, 8, 1], at: 10 * second, on: &screen, judge: &gate))
    XCTAssertFalse(screen.unlocked, "the right pattern never unlocks while the log cannot hold it")
    screen.advance(to: 11 * second, judge: &gate)
    XCTAssertEqual(screen.controller.state.prompt, PromptText.storageError)
    XCTAssertEqual(store.record, .clean, "not counted: the entry comes first")
    store.auditFails = false
    screen.advance(to: 12 * second, judge: &gate)
    XCTAssertNotNil(enter([6, 3, 8, 1], at: 13 * second, on: &screen, judge: &gate))
    XCTAssertTrue(screen.unlocked)
    XCTAssertEqual(store.audited.map(\.event), [.attempt, .unlocked])
  }

  func testUnwritableStateLocksTheScreenUntilAWriteSucceeds() throws {
    let enrolled = try EnrolledPattern(
      dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: try HashCost(passes: 1, memoryBytes: 8192))
    let store = FlakyStore(pattern: enrolled)
    var gate = try VaultGate(store: store, throttle: .android, clock: .live, startingAt: 0)
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()))
    let storageError = PromptText.storageError

    store.writesFail = true
    XCTAssertNotNil(enter([6, 3, 8, 1], at: 10 * second, on: &screen, judge: &gate))
    XCTAssertFalse(screen.unlocked, "the right pattern never unlocks while its attempt cannot be counted")
    XCTAssertEqual(store.record, .clean)

    // After the verdict, the screen stays on the storage error and takes no input.
    screen.advance(to: 11 * second, judge: &gate)
    XCTAssertEqual(screen.controller.state.prompt, storageError)
    XCTAssertFalse(screen.controller.isAcceptingInput)
    XCTAssertEqual(screen.nextChange(after: 11 * second), 12 * second, "the timer is armed for the retry")
    XCTAssertNil(enter([6, 3, 8, 1], at: 11 * second, on: &screen, judge: &gate), "no input is taken")

    // The retry fails: still locked, next retry two seconds on.
    screen.advance(to: 12 * second, judge: &gate)
    XCTAssertEqual(screen.controller.state.prompt, storageError)
    XCTAssertEqual(screen.nextChange(after: 12 * second), 14 * second)

    // The disk is writable again: the next retry writes, and input is taken again.
    store.writesFail = false
    screen.advance(to: 14 * second, judge: &gate)
    XCTAssertTrue(screen.controller.isAcceptingInput)
    XCTAssertEqual(screen.controller.state.prompt, .drawPattern)

    enter([6, 3, 8, 1], at: 15 * second, on: &screen, judge: &gate)
    XCTAssertTrue(screen.unlocked)
  }

  func testStorageErrorAfterALockoutReturnsToTheLockout() throws {
    let enrolled = try EnrolledPattern(
      dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: try HashCost(passes: 1, memoryBytes: 8192))
    let store = FlakyStore(pattern: enrolled)
    var gate = try VaultGate(store: store, throttle: .android, clock: .live, startingAt: 0)
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()))
    for n in 1...4 {
      screen.advance(to: UInt64(n) * second, judge: &gate)
      XCTAssertNotNil(enter([9, 8, 7, n], at: UInt64(n) * second, on: &screen, judge: &gate))
    }
    XCTAssertEqual(store.record.failures, 4)
    store.writesFail = true
    screen.advance(to: 6 * second, judge: &gate)
    XCTAssertNotNil(enter([9, 8, 7, 5], at: 6 * second, on: &screen, judge: &gate))
    XCTAssertEqual(store.record.failures, 4, "not counted, and not judged either")
    // Another process counted the 5th failure meanwhile (say, check on a good disk).
    store.record.failures = 5
    store.writesFail = false
    screen.advance(to: 8 * second, judge: &gate)
    XCTAssertFalse(screen.controller.isAcceptingInput, "the recorded 5th failure's lockout follows")
    XCTAssertEqual(screen.controller.state.appearance, .wrong)
    guard case .seconds = screen.controller.lockout(at: 8 * second) else {
      return XCTFail("a timed lockout, not \(screen.controller.lockout(at: 8 * second))")
    }
  }

  func testCommandsThatHoldPatternsCannotDumpCore() throws {
    VaultCommandSupport.protectSecretsInMemory()
    var limit: UInt64 = 1
    var dumpable: Int32 = 1
    XCTAssertEqual(pl_core_dump_state(&limit, &dumpable), 0)
    XCTAssertEqual(limit, 0)
    XCTAssertEqual(dumpable, 0)
  }
}
