import LockEvents
import CommandTestSupport
import Foundation
import PatternChoice
import PatternCore
import Vault
import VaultTestSupport
import XCTest

/// The enrolment guard in the Vault itself: every constructor of a new pattern and
/// `CredentialFile.add` refuse each pattern of the standard list, `off` lets them
/// through, a wider list refuses more; the first owner unlock records whether the
/// pattern is common (never the pattern), a new enrolment clears that; the log keeps
/// the guess bucket.
final class PatternGuardTests: XCTestCase {
  /// Far from the head of the attacker's order (past the 10,000th).
  static let strong = DotSequence([6, 3, 8, 1])
  static let otherStrong = DotSequence([8, 4, 2, 9])
  private let cost = VaultTestSupport.cheapCost

  private func state() throws -> String {
    try makeTemporaryDirectory(prefix: "guard").appendingPathComponent("state").path
  }

  func testEveryPatternOfTheStandardListIsRefusedByEveryWayToEnrol() throws {
    let patternGuard = PatternGuard()
    let list = try XCTUnwrap(patternGuard.blocklist(gridSize: 3, minimumDots: 4))
    XCTAssertGreaterThanOrEqual(list.count, PatternBlocklist.standardSize)
    let path = try state()
    try VaultTestSupport.enrol([6, 3, 8, 1], in: path)
    let directory = try StateDirectory(opening: path, creating: false)
    let owner = try EnrolledPattern.load(from: directory)
    for dots in list.patterns {
      let expected = VaultError.patternCommon(listSize: list.count)
      XCTAssertEqual(VaultTestSupport.error { () throws(VaultError) in try patternGuard.check(dots, gridSize: 3, minimumDots: 4) }, expected, dots.dashed)
      XCTAssertEqual(
        VaultTestSupport.error { () throws(VaultError) in
          _ = try EnrolledPattern(dots: dots, gridSize: 3, minimumDots: 4, cost: cost, guardedBy: patternGuard)
        }, expected, dots.dashed)
      XCTAssertEqual(
        VaultTestSupport.error { () throws(VaultError) in
          _ = try EnrolledPattern(dots: dots, minimumDots: 4, keepingSaltOf: owner, besides: .none, guardedBy: patternGuard)
        }, expected, dots.dashed)
      XCTAssertEqual(
        VaultTestSupport.error { () throws(VaultError) in
          try CredentialFile.add(name: "guest", role: .user, expires: nil, hours: nil, dots: dots, in: directory, guardedBy: patternGuard)
        }, expected, dots.dashed)
    }
    XCTAssertTrue(try CredentialFile.load(from: directory).credentials.isEmpty, "nothing was added")
    // The default guard of each is the standard one: no path forgets it.
    XCTAssertEqual(
      VaultTestSupport.error { () throws(VaultError) in _ = try EnrolledPattern(dots: DotSequence([1, 2, 3, 6]), gridSize: 3, minimumDots: 4, cost: cost) },
      .patternCommon(listSize: list.count))
    XCTAssertEqual(
      VaultTestSupport.error { () throws(VaultError) in
        try CredentialFile.add(name: "guest", role: .user, expires: nil, hours: nil, dots: DotSequence([1, 4, 7, 8]), in: directory)
      }, .patternCommon(listSize: list.count))
  }

  func testTheMessageSaysWhyAndHowWithoutThePattern() {
    XCTAssertEqual(
      VaultError.patternCommon(listSize: 2500).message,
      "this pattern is among the 2,500 most commonly chosen (an attacker tries those first); choose one with more dots, fewer straight runs, that starts away from the top-left corner, then try again")
  }

  func testOffLetsAnyPatternThroughAndAWiderListRefusesMore() throws {
    let off = PatternGuard(blocklistSize: nil)
    XCTAssertNil(off.blocklist(gridSize: 3, minimumDots: 4))
    XCTAssertNoThrow(try EnrolledPattern(dots: DotSequence([1, 2, 3, 6]), gridSize: 3, minimumDots: 4, cost: cost, guardedBy: off))
    // Past the standard list (the order's first 300 and their images), within the first 2,500.
    let model = ChoiceModel(gridSize: 3)
    let standard = PatternBlocklist(model: model)
    let between = try XCTUnwrap(model.head(2500).first { !standard.refuses($0) })
    let rank = try XCTUnwrap(model.guessNumber(of: between))
    XCTAssertTrue(rank > PatternBlocklist.standardSize && rank <= 2500, "\(rank)")
    XCTAssertFalse(PatternGuard().refuses(between, gridSize: 3, minimumDots: 4))
    XCTAssertTrue(PatternGuard(blocklistSize: 2500).refuses(between, gridSize: 3, minimumDots: 4))
    XCTAssertFalse(PatternGuard(blocklistSize: 2500).refuses(DotSequence([2, 5, 9, 4, 3]), gridSize: 3, minimumDots: 4))
  }

  private func unlock(_ dots: DotSequence, in path: String, guardedBy patternGuard: PatternGuard, at second: Int64) throws -> UnlockDecision.Result {
    let directory = try StateDirectory(opening: path, creating: false)
    var session = try UnlockSession(
      store: DirectoryAttemptStore(directory), table: .android, startingAt: VaultTestSupport.instant(seconds: second),
      patternGuard: patternGuard)
    return try session.attempt(dots, at: VaultTestSupport.instant(seconds: second)).result
  }

  private func check(_ path: String) throws -> PatternCheck? {
    PatternCheck.load(from: try StateDirectory(opening: path, creating: false))
  }

  func testTheFirstOwnerUnlockRecordsACommonPatternAndANewEnrolmentClearsIt() throws {
    let path = try state()
    // Set while the guard was off (or before it existed).
    let directory = try StateDirectory(opening: path, creating: true)
    try EnrolledPattern(dots: DotSequence([1, 2, 3, 6]), gridSize: 3, minimumDots: 4, cost: cost, guardedBy: PatternGuard(blocklistSize: nil))
      .save(to: directory)
    XCTAssertEqual(try unlock(DotSequence([1, 2, 3, 6]), in: path, guardedBy: PatternGuard(blocklistSize: nil), at: 1), .unlocked)
    XCTAssertNil(try check(path), "the guard off looks at nothing")
    XCTAssertEqual(try unlock(Self.strong, in: path, guardedBy: PatternGuard(), at: 2), .wrong)
    XCTAssertNil(try check(path), "a wrong pattern says nothing of the owner's")
    XCTAssertEqual(try unlock(DotSequence([1, 2, 3, 6]), in: path, guardedBy: PatternGuard(), at: 3), .unlocked, "it keeps unlocking")
    XCTAssertEqual(try check(path), PatternCheck(isCommon: true, blocklistSize: PatternBlocklist.standardSize))
    let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path + "/" + PatternCheck.name))
    XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("1-2-3-6"), "never the pattern")
    XCTAssertEqual(try VaultTestSupport.permissions(path + "/" + PatternCheck.name), 0o600)
    // A new enrolment clears it; the next unlock looks again.
    try EnrolledPattern(dots: Self.strong, gridSize: 3, minimumDots: 4, cost: cost).save(to: directory, auditReason: "set-pattern", guesses: "100000")
    XCTAssertNil(try check(path))
    XCTAssertEqual(try unlock(Self.strong, in: path, guardedBy: PatternGuard(), at: 4), .unlocked)
    XCTAssertEqual(try check(path), PatternCheck(isCommon: false, blocklistSize: PatternBlocklist.standardSize))
  }

  func testACredentialsUnlockSaysNothingOfTheOwnersPattern() throws {
    let path = try state()
    let directory = try StateDirectory(opening: path, creating: true)
    try EnrolledPattern(dots: Self.strong, gridSize: 3, minimumDots: 4, cost: cost).save(to: directory)
    try CredentialFile.add(name: "guest", role: .user, expires: nil, hours: nil, dots: Self.otherStrong, in: directory)
    XCTAssertEqual(try unlock(Self.otherStrong, in: path, guardedBy: PatternGuard(), at: 1), .unlocked)
    XCTAssertNil(try check(path))
  }

  func testThePatternSetAndCredentialEntriesKeepTheGuessBucket() throws {
    let path = try state()
    let directory = try StateDirectory(opening: path, creating: true)
    try EnrolledPattern(dots: Self.strong, gridSize: 3, minimumDots: 4, cost: cost).save(to: directory, auditReason: "set-pattern", guesses: "100000")
    try CredentialFile.add(
      name: "guest", role: .user, expires: nil, hours: nil, dots: Self.otherStrong, in: directory, guesses: "100000+")
    let entries = try AuditLog.lines(in: directory).compactMap { line -> AuditEntry? in
      if case .entry(let entry) = line { return entry }
      return nil
    }
    XCTAssertEqual(entries.map { $0.event }, [.patternSet, .credentialAdded])
    XCTAssertEqual(entries.map { $0.guesses }, ["100000", "100000+"])
    XCTAssertTrue(entries[0].jsonLine.hasSuffix(",\"reason\":\"set-pattern\",\"guesses\":\"100000\"}"), entries[0].jsonLine)
    XCTAssertTrue(entries[1].humanLine.hasSuffix(" reason=user guesses=100000+"), entries[1].humanLine)
    XCTAssertEqual(AuditEntry(jsonLine: entries[0].jsonLine[...]), entries[0])
  }
}
