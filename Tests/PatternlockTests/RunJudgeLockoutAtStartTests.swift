import Foundation
import PatternCore
import Vault
import XCTest

@testable import LockProgram

/// What the lock learns from its judge before its first frame: whether a lockout's
/// countdown comes first. Nil means the pattern may be drawn at once, and only then is
/// the first screen's text all that is rendered before the frame (`GlyphCompletion`).
final class RunJudgeLockoutAtStartTests: XCTestCase {
  private func vault(failures: Int) throws -> RunJudge {
    let enrolled = try EnrolledPattern(
      dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: try HashCost(passes: 1, memoryBytes: 8192))
    let store = StorageErrorTests.FlakyStore(pattern: enrolled)
    store.record.failures = failures
    store.record.lastFailureWallSeconds = failures == 0 ? 0 : Int64(Date().timeIntervalSince1970)
    return .vault(try VaultGate(store: store, throttle: .android, clock: .live, startingAt: 0))
  }

  func testAVaultWithNoLockoutSaysNil() throws {
    var judge = try vault(failures: 0)
    XCTAssertNil(judge.lockoutAtStart(now: 0), "no lockout is nil, not .some(.none)")
    var after = try vault(failures: 2)
    XCTAssertNil(after.lockoutAtStart(now: 0), "two failures under Android's table lock nothing out")
  }

  func testAVaultLockedOutSaysForHowLong() throws {
    var judge = try vault(failures: 5)
    guard case .seconds(let seconds) = judge.lockoutAtStart(now: 0) else {
      return XCTFail("five failures just now: a timed lockout")
    }
    XCTAssertGreaterThan(seconds, 0)
  }

  func testAJudgeWithoutAVaultSaysNil() {
    var judge = RunJudge.development(DevelopmentJudge(expected: DotSequence([1, 2, 3, 6]), minimumDots: 4, matchUnlocks: true))
    XCTAssertNil(judge.lockoutAtStart(now: 0))
  }
}
