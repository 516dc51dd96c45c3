import PatternCore
import XCTest

/// The throttle table and the policy's rules, driven by injected clock values.
final class UnlockPolicyTests: XCTestCase {
  /// Clock values: one boot, wall time from late 2023.
  enum S {
    static let boot = BootIdentity(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
    static func instant(seconds: Int64, extraMicroseconds: UInt64 = 0, boot: BootIdentity? = S.boot) -> UnlockInstant {
      UnlockInstant(monotonicMicroseconds: UInt64(seconds) * 1_000_000 + extraMicroseconds, wallSeconds: 1_700_000_000 + seconds, boot: boot)
    }
  }

  func fingerprint(_ n: UInt64) -> PatternFingerprint { PatternFingerprint(high: n, low: ~n) }

  func testAndroidTableHasEveryDocumentedStep() {
    let table = ThrottleTable.android
    let expected: [Int: Lockout] = [
      0: .none, 1: .none, 2: .none, 3: .none, 4: .none,
      5: .seconds(60), 6: .seconds(300), 7: .seconds(900), 8: .seconds(1800), 9: .seconds(5400),
      // AOSP's SoftwareRateLimiter: 4 h, 12 h, 36 h, 4 d, 13 d, 41 d, 123 d, 365 d, 3 y, 9 y.
      10: .seconds(14_400), 11: .seconds(43_200), 12: .seconds(129_600), 13: .seconds(4 * 86_400),
      14: .seconds(13 * 86_400), 15: .seconds(41 * 86_400), 16: .seconds(123 * 86_400), 17: .seconds(365 * 86_400),
      18: .seconds(3 * 365 * 86_400), 19: .seconds(9 * 365 * 86_400),
      20: .permanent, 21: .permanent, 999_999: .permanent,
    ]
    for (failures, lockout) in expected {
      XCTAssertEqual(table.lockout(afterFailures: failures), lockout, "after \(failures) failures")
    }
  }

  func testTriesBeforeLockoutCountsToTheNextLockingFailure() {
    let table = ThrottleTable.android
    XCTAssertEqual(table.triesBeforeLockout(afterFailures: 0), 5)
    XCTAssertEqual(table.triesBeforeLockout(afterFailures: 4), 1)
    XCTAssertNil(table.triesBeforeLockout(afterFailures: 5), "the fifth failure started a lockout")
    XCTAssertNil(table.triesBeforeLockout(afterFailures: 20), "the permanent lockout")
    let none = ThrottleTable(delaysSeconds: [], permanentAfter: 100_000)!
    XCTAssertEqual(none.triesBeforeLockout(afterFailures: 0), 1000, "bounded for a table with no lockout near")
  }

  func testTableRejectsShrinkingOrNegativeDelays() {
    XCTAssertNil(ThrottleTable(delaysSeconds: [0, 60, 30], permanentAfter: 5))
    XCTAssertNil(ThrottleTable(delaysSeconds: [-1], permanentAfter: 5))
    XCTAssertNil(ThrottleTable(delaysSeconds: [0], permanentAfter: 0))
    let table = ThrottleTable(delaysSeconds: [0, 10], permanentAfter: 4)!
    XCTAssertEqual(table.lockout(afterFailures: 3), .seconds(10), "past the list, the last delay holds")
    XCTAssertEqual(table.lockout(afterFailures: 4), .permanent)
  }

  func testEveryFailureStepLocksForExactlyItsDelay() {
    let table = ThrottleTable.android
    var policy = UnlockPolicy(table: table, record: .clean, startingAt: S.instant(seconds: 0))
    var now: Int64 = 0
    for failure in 1...20 {
      XCTAssertNil(policy.gate(at: S.instant(seconds: now)), "attempt \(failure) must be allowed")
      let decision = policy.judgeWrong(fingerprint(UInt64(failure)), at: S.instant(seconds: now))
      XCTAssertEqual(decision.result, .wrong)
      XCTAssertEqual(decision.failures, failure)
      switch table.lockout(afterFailures: failure) {
      case .none:
        XCTAssertNil(decision.retryInSeconds)
        XCTAssertNil(policy.gate(at: S.instant(seconds: now)))
      case .seconds(let delay):
        XCTAssertEqual(decision.retryInSeconds, delay, "failure \(failure)")
        XCTAssertEqual(policy.gate(at: S.instant(seconds: now + delay - 1))?.retryInSeconds, 1, "failure \(failure)")
        XCTAssertEqual(policy.gate(at: S.instant(seconds: now + delay - 1, extraMicroseconds: 999_999))?.retryInSeconds, 1)
        XCTAssertNil(policy.gate(at: S.instant(seconds: now + delay)), "failure \(failure): lockout ends on time")
        now += delay
      case .permanent:
        XCTAssertEqual(failure, 20)
        XCTAssertTrue(decision.isPermanentlyLocked)
        let later = policy.gate(at: S.instant(seconds: now + 1_000_000_000))
        XCTAssertEqual(later?.result, .lockedOut)
        XCTAssertTrue(later?.isPermanentlyLocked ?? false)
        XCTAssertNil(later?.retryInSeconds)
      }
      now += 1
    }
  }

  func testSameWrongPatternWithinFiveMinutesCountsOnce() {
    var policy = UnlockPolicy(table: .android, record: .clean, startingAt: S.instant(seconds: 0))
    XCTAssertEqual(policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 0)).failures, 1)
    let repeated = policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 299))
    XCTAssertEqual(repeated.result, .wrong)
    XCTAssertNil(repeated.failures, "a repeat within 5 minutes is not counted")
    XCTAssertEqual(policy.record.failures, 1)
    XCTAssertEqual(policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 300)).failures, 2, "after 5 minutes it counts again")
  }

  func testOnlyTheLastFiveWrongPatternsAreRemembered() {
    var policy = UnlockPolicy(table: ThrottleTable(delaysSeconds: [0], permanentAfter: 100)!, record: .clean, startingAt: S.instant(seconds: 0))
    for n in 1...6 { _ = policy.judgeWrong(fingerprint(UInt64(n)), at: S.instant(seconds: Int64(n))) }
    XCTAssertEqual(policy.record.recentWrong.count, 5)
    XCTAssertEqual(policy.record.recentWrong.map(\.fingerprint), (2...6).map { fingerprint(UInt64($0)) })
    XCTAssertEqual(policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 10)).failures, 7, "the sixth-last is forgotten")
    XCTAssertNil(policy.judgeWrong(fingerprint(4), at: S.instant(seconds: 10)).failures)
  }

  func testWallClockGoingBackwardsMakesARepeatCount() {
    var policy = UnlockPolicy(table: .android, record: .clean, startingAt: S.instant(seconds: 100))
    _ = policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 100))
    XCTAssertEqual(policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 50)).failures, 2)
  }

  func testCorrectPatternClearsCounterAndMemory() {
    var policy = UnlockPolicy(table: .android, record: .clean, startingAt: S.instant(seconds: 0))
    XCTAssertFalse(policy.recordCorrect(), "nothing to persist when already clean")
    _ = policy.judgeWrong(fingerprint(1), at: S.instant(seconds: 0))
    XCTAssertTrue(policy.recordCorrect())
    XCTAssertEqual(policy.record, .clean)
  }

  func testRestartStartsAPendingLockoutAgainInFull() {
    let record = AttemptRecord(failures: 6, lastFailureWallSeconds: 1, recentWrong: [])
    // The previous run's lockout ended long ago by the wall clock; it starts again.
    let policy = UnlockPolicy(table: .android, record: record, startingAt: S.instant(seconds: 5000))
    XCTAssertEqual(policy.gate(at: S.instant(seconds: 5000))?.retryInSeconds, 300)
    XCTAssertEqual(policy.gate(at: S.instant(seconds: 5299))?.retryInSeconds, 1)
    XCTAssertNil(policy.gate(at: S.instant(seconds: 5300)))
    let fresh = UnlockPolicy(table: .android, record: AttemptRecord(failures: 4, lastFailureWallSeconds: 1, recentWrong: []), startingAt: S.instant(seconds: 0))
    XCTAssertNil(fresh.gate(at: S.instant(seconds: 0)), "4 failures carry no lockout")
  }

  func testDecisionJSONHasKeysInOrderAndOnlyWhenSet() {
    XCTAssertEqual(UnlockDecision(result: .unlocked).jsonLine, #"{"result":"unlocked"}"#)
    XCTAssertEqual(UnlockDecision(result: .tooShort).jsonLine, #"{"result":"too-short"}"#)
    XCTAssertEqual(
      UnlockDecision(result: .wrong, lockout: .seconds(60), failures: 5).jsonLine,
      #"{"result":"wrong","retry_in_s":60,"failures":5}"#)
    XCTAssertEqual(UnlockDecision(result: .lockedOut, lockout: .seconds(7)).jsonLine, #"{"result":"locked-out","retry_in_s":7}"#)
  }
}

extension UnlockPolicy {
  /// A pattern known to be wrong, in the vault's order: a recent repeat is not counted;
  /// otherwise the failure is counted, then the pattern remembered.
  fileprivate mutating func judgeWrong(_ fingerprint: PatternFingerprint, at now: UnlockInstant) -> UnlockDecision {
    if isRecentRepeat(fingerprint, at: now) { return UnlockDecision(result: .wrong) }
    let decision = countFailure(at: now)
    rememberWrong(fingerprint, at: now)
    return decision
  }
}
