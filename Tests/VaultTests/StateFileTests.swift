import CommandTestSupport
import Foundation
import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// The state files on disk: formats, permissions, persistence across restarts, and
/// failing closed on every kind of damage.
final class StateFileTests: XCTestCase {
  typealias S = VaultTestSupport
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  var attemptsPath: String { statePath + "/attempts" }
  var patternPath: String { statePath + "/pattern" }

  override func setUpWithError() throws { sandbox = try makeTemporaryDirectory(prefix: "vault-tests", permissions: 0o755) }

  /// A sealed state file from full lines (header first), with a valid checksum.
  static func seal(_ lines: [String]) -> [UInt8] {
    var bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
    bytes += Array("checksum \(HexText.encode(bytes: Sodium.checksum(bytes[...])))\n".utf8)
    return bytes
  }

  func session(at seconds: Int64 = 0, boot: BootIdentity? = S.boot) throws(VaultError) -> UnlockSession {
    try UnlockSession(
      store: DirectoryAttemptStore(StateDirectory(opening: statePath, creating: false)), table: .android,
      startingAt: S.instant(seconds: seconds, boot: boot))
  }

  func record(_ failures: Int) -> AttemptRecord {
    AttemptRecord(
      failures: failures, lastFailureWallSeconds: 1_700_000_123,
      recentWrong: [AttemptRecord.RecentWrong(fingerprint: PatternFingerprint(high: 1, low: 2), wallSeconds: 1_700_000_100)])
  }

  func testAttemptsRecordRoundTripsThroughItsFileFormat() {
    let r = AttemptRecord(
      failures: 7, lastFailureWallSeconds: 1_717_171_717,
      recentWrong: (1...5).map { AttemptRecord.RecentWrong(fingerprint: PatternFingerprint(high: UInt64($0) << 60, low: UInt64($0)), wallSeconds: Int64($0)) })
    XCTAssertEqual(AttemptsFile.decode(AttemptsFile.encode(r)), .intact(r))
    XCTAssertEqual(AttemptsFile.decode(AttemptsFile.encode(.clean)), .intact(.clean))
    let text = String(decoding: AttemptsFile.encode(r), as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("patternlock-attempts 2\nfailures 7\nlast-failure 1717171717\nwrong 1000000000000000000000000000000" + "1 1\n"), text)
    var stamped = r
    stamped.lastFailureMonotonic = AttemptRecord.MonotonicStamp(boot: S.boot, microseconds: 81_234_567)
    let stampedText = String(decoding: AttemptsFile.encode(stamped), as: UTF8.self)
    XCTAssertTrue(stampedText.contains("\nlast-failure 1717171717\nlast-failure-boot \(S.boot.hex) 81234567\nwrong "), stampedText)
    XCTAssertEqual(AttemptsFile.decode(AttemptsFile.encode(stamped)), .intact(stamped))
  }

  func testVersionOneAttemptsFilesAreStillRead() {
    let bytes = StateFileTests.seal(["patternlock-attempts 1", "failures 3", "last-failure 1700000000"])
    XCTAssertEqual(AttemptsFile.decode(bytes), .intact(AttemptRecord(failures: 3, lastFailureWallSeconds: 1_700_000_000, recentWrong: [])))
    let v1WithBoot = StateFileTests.seal(["patternlock-attempts 1", "failures 3", "last-failure 1", "last-failure-boot \(S.boot.hex) 5"])
    guard case .damaged = AttemptsFile.decode(v1WithBoot) else { return XCTFail("version 1 has no boot line") }
    let badBoot = StateFileTests.seal(["patternlock-attempts 2", "failures 3", "last-failure 1", "last-failure-boot xyz 5"])
    guard case .damaged = AttemptsFile.decode(badBoot) else { return XCTFail("a malformed boot line is damage") }
  }

  func testDirectoryIsCreated0700AndFiles0600EvenUnderPermissiveUmask() throws {
    let old = umask(0)
    defer { umask(old) }
    try S.enrol([1, 2, 3, 6], in: statePath)
    XCTAssertEqual(try S.permissions(statePath), 0o700)
    XCTAssertEqual(try S.permissions(patternPath), 0o600)
    XCTAssertEqual(try S.permissions(attemptsPath), 0o600)
    let names = try FileManager.default.contentsOfDirectory(atPath: statePath).sorted()
    XCTAssertEqual(names, ["attempts", "lock", "pattern"], "no temporary file is left behind")
    XCTAssertEqual(try S.permissions(statePath + "/lock"), 0o600)
  }

  func testInsecureOrFakeStateDirectoryIsRefused() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    chmod(statePath, 0o750)
    guard case .stateDirectoryInsecure = S.error({ () throws(VaultError) in _ = try StateDirectory(opening: statePath, creating: false) }) else {
      return XCTFail("a 0750 or foreign directory must be refused")
    }
    chmod(statePath, 0o700)
    chown(statePath, 65534, 65534)
    guard case .stateDirectoryInsecure = S.error({ () throws(VaultError) in _ = try StateDirectory(opening: statePath, creating: false) }) else {
      return XCTFail("a 0750 or foreign directory must be refused")
    }
    chown(statePath, getuid(), getgid())
    let link = sandbox.appendingPathComponent("link").path
    symlink(statePath, link)
    XCTAssertEqual(
      S.error { () throws(VaultError) in _ = try StateDirectory(opening: link, creating: true) }, .stateDirectoryNotADirectory(path: link, kind: "a symbolic link"))
    guard case .stateDirectoryMissing = S.error({ () throws(VaultError) in _ = try StateDirectory(opening: sandbox.appendingPathComponent("missing").path, creating: false) }) else {
      return XCTFail("a missing directory must be reported")
    }
  }

  func testCountersSurviveARestartAndTheLockoutStartsAgainInFull() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var first = try session(at: 0)
    let wrongs: [[Int]] = [[1, 2, 3, 4], [1, 2, 3, 5], [1, 5, 9, 8], [1, 4, 7, 8], [2, 5, 8, 9]]
    for (i, w) in wrongs.enumerated() {
      XCTAssertEqual(try first.attempt(DotSequence(w), at: S.instant(seconds: Int64(i))).failures, i + 1)
    }
    XCTAssertEqual(try first.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 10)).result, .lockedOut)
    // A restart during the lockout (same boot): it restarts in full.
    var restarted = try session(at: 30)
    XCTAssertEqual(try restarted.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 60)), UnlockDecision(result: .lockedOut, lockout: .seconds(30)))
    // A new boot, "hours" later by both clocks: the 1-minute lockout restarts in full.
    let nextBoot = BootIdentity(high: 7, low: 7)
    var second = try session(at: 100_000, boot: nextBoot)
    XCTAssertEqual(second.policy.record.failures, 5)
    XCTAssertEqual(second.policy.record.recentWrong.count, 5)
    let locked = try second.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 100_030, boot: nextBoot))
    XCTAssertEqual(locked, UnlockDecision(result: .lockedOut, lockout: .seconds(30)))
    XCTAssertEqual(try second.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 100_060, boot: nextBoot)).result, .unlocked)
    let third = try session(at: 200_000)
    XCTAssertEqual(third.policy.record, .clean, "the success was persisted")
  }

  func testALockoutThatEndedBeforeAStartInTheSameBootIsOver() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var first = try session(at: 0)
    for n in 1...5 { XCTAssertEqual(try first.attempt(DotSequence([9, 8, 7, n]), at: S.instant(seconds: Int64(n))).failures, n) }
    var later = try session(at: 66)
    XCTAssertEqual(try later.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 67)).result, .unlocked)
  }

  func testAnotherProcessesFailureIsSeenBeforeTheNextAttempt() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var screen = try session(at: 0)
    var script = try session(at: 0)
    for n in 1...4 { XCTAssertEqual(try script.attempt(DotSequence([9, 8, 7, n]), at: S.instant(seconds: Int64(n))).failures, n) }
    // The screen's session started with 0 failures: it must count on from 4, not 0.
    XCTAssertEqual(try screen.attempt(DotSequence([9, 8, 7, 6]), at: S.instant(seconds: 10)).failures, 5)
    XCTAssertEqual(
      try script.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 20)), UnlockDecision(result: .lockedOut, lockout: .seconds(50)),
      "the lockout the other session started runs from its failure, for both")
    XCTAssertEqual(try script.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 70)).result, .unlocked)
    XCTAssertEqual(try session(at: 80).policy.record, .clean)
  }

  func testTooShortPatternsAreNeverCounted() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var s = try session()
    for n in 0..<30 {
      XCTAssertEqual(try s.attempt(DotSequence([1, 2, 4]), at: S.instant(seconds: Int64(n))).result, .tooShort)
    }
    XCTAssertEqual(try session().policy.record, .clean)
  }

  func testRepeatedWrongPatternIsPersistedOnce() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var s = try session()
    XCTAssertEqual(try s.attempt(DotSequence([1, 2, 3, 4]), at: S.instant(seconds: 0)).failures, 1)
    XCTAssertNil(try s.attempt(DotSequence([1, 2, 3, 4]), at: S.instant(seconds: 60)).failures)
    var again = try session(at: 120)
    XCTAssertNil(try again.attempt(DotSequence([1, 2, 3, 4]), at: S.instant(seconds: 120)).failures, "the memory survives a restart")
    XCTAssertEqual(try again.attempt(DotSequence([1, 2, 3, 4]), at: S.instant(seconds: 400)).failures, 2)
  }

  func testMissingPatternFileMeansNotEnrolled() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    try FileManager.default.removeItem(atPath: patternPath)
    XCTAssertEqual(S.error { () throws(VaultError) in _ = try session() }, .notEnrolled(directory: statePath))
  }

  /// Replaces the attempts file with `bytes` (mode 0600) and checks that a new session
  /// is locked for good, says why, and never unlocks.
  func assertFailsClosed(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
    var s = try session()
    XCTAssertNotNil(s.attemptsDamage, what, file: file, line: line)
    XCTAssertEqual(s.policy.record.failures, ThrottleTable.android.permanentAfter, what, file: file, line: line)
    let decision = try s.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 1_000_000_000))
    XCTAssertEqual(decision.result, .lockedOut, what, file: file, line: line)
    XCTAssertTrue(decision.isPermanentlyLocked, what, file: file, line: line)
  }

  func writeAttempts(_ bytes: [UInt8]) throws {
    try? FileManager.default.removeItem(atPath: attemptsPath)
    XCTAssertTrue(FileManager.default.createFile(atPath: attemptsPath, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
  }

  func testTruncationAtEveryByteFailsClosed() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    let good = AttemptsFile.encode(record(3))
    for length in 0..<good.count {
      try writeAttempts(Array(good[0..<length]))
      try assertFailsClosed("truncated to \(length) of \(good.count) bytes")
    }
    try writeAttempts(good)
    XCTAssertNil(try session().attemptsDamage)
  }

  func testEveryFlippedBitFailsClosed() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    let good = AttemptsFile.encode(record(3))
    // Decoding alone for every bit (fast), then a full session for a sample of them.
    for index in 0..<good.count {
      for bit in 0..<8 {
        var bad = good
        bad[index] ^= UInt8(1 << bit)
        guard case .damaged = AttemptsFile.decode(bad) else {
          return XCTFail("flipping bit \(bit) of byte \(index) was not detected")
        }
      }
    }
    for index in stride(from: 0, to: good.count, by: 7) {
      var bad = good
      bad[index] ^= 0x04
      try writeAttempts(bad)
      try assertFailsClosed("bit 2 of byte \(index) flipped")
    }
  }

  func testWrongVersionGarbageAndOddContentFailClosed() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    let cases: [(String, [UInt8])] = [
      ("empty", []),
      ("version 3, valid checksum", Self.seal(["patternlock-attempts 3", "failures 0", "last-failure 0"])),
      ("boot line twice", Self.seal(["patternlock-attempts 2", "failures 1", "last-failure 0", "last-failure-boot \(S.boot.hex) 1", "last-failure-boot \(S.boot.hex) 1"])),
      ("pattern file's kind", Self.seal(["patternlock-pattern 1", "failures 0", "last-failure 0"])),
      ("negative count", Self.seal(["patternlock-attempts 1", "failures -1", "last-failure 0"])),
      ("leading zero", Self.seal(["patternlock-attempts 1", "failures 00", "last-failure 0"])),
      ("huge count", Self.seal(["patternlock-attempts 1", "failures 99999999999999999999", "last-failure 0"])),
      ("missing field", Self.seal(["patternlock-attempts 1", "failures 0"])),
      ("fields swapped", Self.seal(["patternlock-attempts 1", "last-failure 0", "failures 0"])),
      ("six wrong lines", Self.seal(["patternlock-attempts 1", "failures 6", "last-failure 0"] + Array(repeating: "wrong \(String(repeating: "a", count: 32)) 1", count: 6))),
      ("short fingerprint", Self.seal(["patternlock-attempts 1", "failures 1", "last-failure 0", "wrong abc 1"])),
      ("extra line after checksum", AttemptsFile.encode(.clean) + Array("failures 0\n".utf8)),
      ("no checksum", Array("patternlock-attempts 1\nfailures 0\nlast-failure 0\n".utf8)),
      ("garbage", (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }),
      ("NUL bytes", [UInt8](repeating: 0, count: 64)),
      ("CRLF line ends", Array(String(decoding: AttemptsFile.encode(.clean), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)),
      ("too large", [UInt8](repeating: UInt8(ascii: "a"), count: 5000)),
    ]
    for (what, bytes) in cases {
      try writeAttempts(bytes)
      try assertFailsClosed(what)
    }
  }

  func testWrongKindOwnerOrModeOfAttemptsFileFailsClosed() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    let good = AttemptsFile.encode(.clean)

    try FileManager.default.removeItem(atPath: attemptsPath)
    try assertFailsClosed("missing")

    try FileManager.default.createDirectory(atPath: attemptsPath, withIntermediateDirectories: false)
    try assertFailsClosed("a directory")
    try FileManager.default.removeItem(atPath: attemptsPath)

    let elsewhere = sandbox.appendingPathComponent("elsewhere").path
    FileManager.default.createFile(atPath: elsewhere, contents: Data(good), attributes: [.posixPermissions: 0o600])
    symlink(elsewhere, attemptsPath)
    try assertFailsClosed("a symlink to a good file")
    try FileManager.default.removeItem(atPath: attemptsPath)

    mkfifo(attemptsPath, 0o600)
    try assertFailsClosed("a FIFO (must not block)")
    try FileManager.default.removeItem(atPath: attemptsPath)

    try writeAttempts(good)
    chmod(attemptsPath, 0o644)
    try assertFailsClosed("mode 0644")
    chmod(attemptsPath, 0o600)
    XCTAssertNil(try session().attemptsDamage)

    if getuid() == 0 {
      chown(attemptsPath, 65534, 65534)
      try assertFailsClosed("owned by nobody")
      chown(attemptsPath, 0, 0)
    }
    XCTAssertNil(try session().attemptsDamage)
  }

  func testDamagedPatternFileIsRefusedNeverTrusted() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    let good = try Data(contentsOf: URL(fileURLWithPath: patternPath))
    for length in stride(from: 0, to: good.count, by: 5) {
      try good.prefix(length).write(to: URL(fileURLWithPath: patternPath))
      guard case .secretFileUnusable = S.error({ () throws(VaultError) in _ = try session() }) else { return XCTFail("truncated to \(length) was accepted") }
    }
    try good.write(to: URL(fileURLWithPath: patternPath))
    chmod(patternPath, 0o640)
    XCTAssertEqual(S.error { () throws(VaultError) in _ = try session() }, .secretFileUnusable(path: patternPath, problem: "its mode is 0640, not 0600"))
    chmod(patternPath, 0o600)
    XCTAssertNil(S.error { () throws(VaultError) in _ = try session() })
  }

  func testResetLeavesACleanRecordThatUnlocks() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    try writeAttempts(Array("garbage".utf8))
    try assertFailsClosed("garbage before reset")
    try AttemptsFile.save(.clean, to: StateDirectory(opening: statePath, creating: false))
    var s = try session()
    XCTAssertNil(s.attemptsDamage)
    XCTAssertEqual(try s.attempt(DotSequence([1, 2, 3, 6]), at: S.instant(seconds: 0)).result, .unlocked)
  }

  func testReenrolmentKeepsTheAttemptCounter() throws {
    try S.enrol([1, 2, 3, 6], in: statePath)
    var s = try session()
    _ = try s.attempt(DotSequence([1, 2, 3, 4]), at: S.instant(seconds: 0))
    try S.enrol([9, 8, 7, 4], in: statePath)
    var after = try session()
    XCTAssertEqual(after.policy.record.failures, 1)
    XCTAssertEqual(try after.attempt(DotSequence([9, 8, 7, 4]), at: S.instant(seconds: 1)).result, .unlocked)
  }
}
