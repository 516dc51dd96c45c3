import CommandTestSupport
import Foundation
import PatternCore
import Scene
import Vault
import XCTest

@testable import patternlock

/// `enroll`: draw, draw again; only a confirmed pattern is stored.
final class EnrollmentGateTests: XCTestCase {
  /// A state directory's path that does not exist yet (the gate creates it).
  private func directory() throws -> String {
    try makeTemporaryDirectory(prefix: "enroll").appendingPathComponent("state").path
  }

  private func outcome(_ dots: [Int]) -> GestureOutcome {
    GestureOutcome(dots: DotSequence(dots), result: dots.count >= 4 ? .complete : .tooShort, timeMicroseconds: 0)
  }

  private func stored(_ path: String) throws -> EnrolledPattern? {
    let directory = try StateDirectory(opening: path, creating: false)
    do { return try EnrolledPattern.load(from: directory) } catch { return nil }
  }

  private let cheap = try! HashCost(passes: 1, memoryBytes: 8 << 20)

  func testConfirmedPatternIsStoredAndUnlocksTheLoop() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let first = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    XCTAssertFalse(first.unlocks)
    XCTAssertEqual(first.nextPrompt?.string, "Draw it again to confirm")
    XCTAssertNil(try stored(path), "nothing is saved before the confirmation")
    let second = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    XCTAssertTrue(second.unlocks)
    XCTAssertEqual(second.verdict, .accepted(.patternSaved))
    let enrolled = try XCTUnwrap(try stored(path))
    XCTAssertTrue(enrolled.matches(DotSequence([1, 2, 3, 6])))
    XCTAssertFalse(enrolled.matches(DotSequence([1, 2, 3, 5])))
  }

  func testMismatchStartsOverAndSavesNothing() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    _ = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    let mismatch = gate.judge(outcome([1, 2, 3, 5]), at: 0)
    XCTAssertFalse(mismatch.unlocks)
    XCTAssertEqual(mismatch.verdict, .rejected(.noMatchDrawNew))
    XCTAssertEqual(mismatch.nextPrompt, EnrollmentGate.startPrompt)
    XCTAssertNil(try stored(path))
    // Starting over: the next drawing is a new first one, not a confirmation.
    XCTAssertFalse(gate.judge(outcome([7, 8, 9, 6]), at: 0).unlocks)
    XCTAssertTrue(gate.judge(outcome([7, 8, 9, 6]), at: 0).unlocks)
    XCTAssertTrue(try XCTUnwrap(try stored(path)).matches(DotSequence([7, 8, 9, 6])))
  }

  func testTooShortIsExplainedAndNeverStored() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let short = gate.judge(outcome([1, 2]), at: 0)
    XCTAssertEqual(short.verdict, .rejected(.tooShort(minimumDots: 4)))
    XCTAssertFalse(short.unlocks)
    _ = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    XCTAssertFalse(gate.judge(outcome([1, 2, 3]), at: 0).unlocks, "a too-short confirmation starts over too")
    XCTAssertNil(try stored(path))
  }
}
