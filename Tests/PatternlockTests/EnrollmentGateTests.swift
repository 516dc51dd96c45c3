import CommandTestSupport
import Configuration
import Foundation
import PatternChoice
import PatternCore
import Scene
import Vault
import XCTest

@testable import LockProgram

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

  /// Patterns far from the head of the attacker's order (past the 10,000th), which
  /// the enrolment guard lets through.
  static let strong = [6, 3, 8, 1]
  static let otherStrong = [8, 4, 2, 9]

  func testConfirmedPatternIsStoredAndUnlocksTheLoop() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let first = gate.judge(outcome(Self.strong), at: 0)
    XCTAssertFalse(first.unlocks)
    XCTAssertEqual(first.nextPrompt?.string, "Draw it again to confirm")
    XCTAssertNil(try stored(path), "nothing is saved before the confirmation")
    let second = gate.judge(outcome(Self.strong), at: 0)
    XCTAssertTrue(second.unlocks)
    XCTAssertEqual(second.verdict, .accepted(.patternSaved(foundWithinGuesses: 100_000, allowed: 20)))
    XCTAssertEqual(
      PromptText.patternSaved(foundWithinGuesses: 100_000, allowed: 20).string,
      "Saved: about 100000 guesses; 20 allowed")
    let enrolled = try XCTUnwrap(try stored(path))
    XCTAssertTrue(enrolled.matches(DotSequence(Self.strong)))
    XCTAssertFalse(enrolled.matches(DotSequence([1, 2, 3, 5])))
  }

  /// A commonly chosen first drawing is refused with the advice, and the next drawing
  /// is a first one again; nothing is stored.
  func testCommonPatternIsRefusedAndDrawnAgain() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let refused = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    XCTAssertFalse(refused.unlocks)
    XCTAssertEqual(refused.verdict, .rejected(.commonPattern))
    XCTAssertEqual(PromptText.commonPattern.string, "Too common: use more dots and turns")
    XCTAssertEqual(refused.nextPrompt, EnrollmentGate.startPrompt)
    // Its confirmation is not asked for: the same drawing is refused again, as first.
    XCTAssertEqual(gate.judge(outcome([1, 2, 3, 6]), at: 0).verdict, .rejected(.commonPattern))
    XCTAssertNil(try stored(path))
    XCTAssertEqual(gate.judge(outcome(Self.otherStrong), at: 0).nextPrompt, .drawAgainToConfirm)
    XCTAssertTrue(gate.judge(outcome(Self.otherStrong), at: 0).unlocks)
  }

  /// Every pattern of the standard list is refused at the first drawing.
  func testEveryPatternOfTheStandardListIsRefusedOnScreen() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let list = PatternBlocklist(model: ChoiceModel(gridSize: 3), headSize: PatternBlocklist.standardSize)
    XCTAssertGreaterThan(list.count, PatternBlocklist.standardSize)
    for dots in list.patterns {
      let judged = gate.judge(GestureOutcome(dots: dots, result: .complete, timeMicroseconds: 0), at: 0)
      XCTAssertEqual(judged.verdict, .rejected(.commonPattern), dots.dashed)
    }
    XCTAssertNil(try stored(path))
  }

  /// `[vault] blocklist = off`: the screen lets a common pattern through.
  func testTheGuardTurnedOffLetsACommonPatternThrough() throws {
    let path = try directory()
    var settings = Settings()
    settings.blocklistSize = nil
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap, settings: settings)
    _ = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    let saved = gate.judge(outcome([1, 2, 3, 6]), at: 0)
    XCTAssertEqual(saved.verdict, .accepted(.patternSaved(foundWithinGuesses: 20, allowed: 20)))
    XCTAssertTrue(try XCTUnwrap(try stored(path)).matches(DotSequence([1, 2, 3, 6])))
  }

  func testMismatchStartsOverAndSavesNothing() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    _ = gate.judge(outcome(Self.strong), at: 0)
    let mismatch = gate.judge(outcome([1, 2, 3, 5]), at: 0)
    XCTAssertFalse(mismatch.unlocks)
    XCTAssertEqual(mismatch.verdict, .rejected(.noMatchDrawNew))
    XCTAssertEqual(mismatch.nextPrompt, EnrollmentGate.startPrompt)
    XCTAssertNil(try stored(path))
    // Starting over: the next drawing is a new first one, not a confirmation.
    XCTAssertFalse(gate.judge(outcome(Self.otherStrong), at: 0).unlocks)
    XCTAssertTrue(gate.judge(outcome(Self.otherStrong), at: 0).unlocks)
    XCTAssertTrue(try XCTUnwrap(try stored(path)).matches(DotSequence(Self.otherStrong)))
  }

  func testTooShortIsExplainedAndNeverStored() throws {
    let path = try directory()
    var gate = try EnrollmentGate(stateDirectory: path, gridSize: 3, minimumDots: 4, cost: cheap)
    let short = gate.judge(outcome([1, 2]), at: 0)
    XCTAssertEqual(short.verdict, .rejected(.tooShort(minimumDots: 4)))
    XCTAssertFalse(short.unlocks)
    _ = gate.judge(outcome(Self.strong), at: 0)
    XCTAssertFalse(gate.judge(outcome([1, 2, 3]), at: 0).unlocks, "a too-short confirmation starts over too")
    XCTAssertNil(try stored(path))
  }
}
