import LockEvents
import CShim
import CommandTestSupport
import Configuration
import Foundation
@testable import Vault
import XCTest

/// `credential add`, `list` and `remove` through the built binary, and how the others
/// are judged beside the owner: one failure counter for all, expiry and hours on a
/// faked wall clock (libfaketime, as LockoutClockTests fakes it), the audit log naming
/// the credential, and a state directory from before several credentials unchanged.
final class CredentialCommandTests: XCTestCase {
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  let cheap = ["--argon-passes", "1", "--argon-memory-mib", "1"]
  let owner = "6-3-8-1"
  let alice = "8-4-2-9"
  let bob = "6-2-4-9"

  override func setUpWithError() throws {
    sandbox = try makeTemporaryDirectory(prefix: "credential-tests", permissions: 0o755)
    let set = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap, stdin: owner)
    XCTAssertEqual(set.status, 0, set.stderr)
  }

  @discardableResult
  func credential(_ arguments: [String], stdin: String = "") throws -> CommandResult {
    try PatternlockBinary.run(["credential"] + arguments + ["--state-dir", statePath], stdin: stdin)
  }

  func add(_ name: String, _ pattern: String, _ options: [String] = []) throws {
    let result = try credential(["add", name] + options, stdin: pattern)
    XCTAssertEqual(result.status, 0, result.stderr)
  }

  func check(_ pattern: String, environment: [String: String] = [:]) throws -> CommandResult {
    try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: pattern, environment: environment)
  }

  func entries() throws -> [AuditEntry] {
    let directory = try StateDirectory(opening: statePath, creating: false)
    return try AuditLog.lines(in: directory).compactMap { line in
      if case .entry(let entry) = line { return entry }
      return nil
    }
  }

  func failures() throws -> Int {
    let directory = try StateDirectory(opening: statePath, creating: false)
    guard case .intact(let record) = AttemptsFile.load(from: directory) else { return -1 }
    return record.failures
  }

  func testAddListAndRemove() throws {
    try add("alice", alice, ["--hours", "Mon-Fri 08:00-18:00"])
    try add("panic", bob, ["--role", "duress", "--expires", "2040-01-31T18:00"])
    let list = try credential(["list"])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssertEqual(
      list.stdout,
      """
      {"name":"owner","role":"admin","expires":null,"hours":null}
      {"name":"alice","role":"user","expires":null,"hours":"Mon-Fri 08:00-18:00"}
      {"name":"panic","role":"duress","expires":"2040-01-31T18:00","hours":null}

      """)
    let file = try String(contentsOfFile: statePath + "/" + CredentialFile.name, encoding: .utf8)
    XCTAssertFalse(file.contains(alice) || file.contains(bob), "never a pattern")
    XCTAssertEqual(try credential(["remove", "panic"]).status, 0)
    XCTAssertFalse(try credential(["list"]).stdout.contains("panic"))
    XCTAssertEqual(try check(bob).status, 3, "a removed credential no longer unlocks")
    let events = try entries().filter { $0.event == .credentialAdded || $0.event == .credentialRemoved }
    XCTAssertEqual(events.map { "\($0.event.rawValue) \($0.credential ?? "") \($0.reason ?? "")" }, [
      "credential-added alice user", "credential-added panic duress", "credential-removed panic ",
    ])
  }

  func testMistakesAreOneLineRefusalsThatChangeNothing() throws {
    try add("alice", alice)
    let cases: [([String], String, String)] = [
      (["add", "bob"], owner, "that pattern is already another credential's"),
      (["add", "bob"], alice, "that pattern is already another credential's"),
      (["add", "alice"], bob, "there is already a credential named alice"),
      (["add", "owner"], bob, "owner is the pattern set with set-pattern"),
      (["add", "Bob"], bob, "is not a credential name"),
      (["add", "bob", bob], "", "say add NAME, list or remove NAME"),
      (["add", "bob", "--role", "boss"], bob, "--role 'boss' is not admin, user, guest or duress"),
      (["add", "bob", "--expires", "tomorrow"], bob, "--expires 'tomorrow' is not a local time"),
      (["add", "bob", "--hours", "Mon-Fri 8-18"], bob, "--hours 'Mon-Fri 8-18' is not DAYS HH:MM-HH:MM"),
      (["add", "bob"], "1-2", "fewer than the minimum of 4"),
      (["remove", "owner"], "", "owner is the pattern set with set-pattern; it cannot be removed"),
      (["remove", "carol"], "", "there is no credential named carol"),
      (["list", "--role", "user"], "", "--role, --expires and --hours belong to 'credential add'"),
    ]
    for (arguments, stdin, message) in cases {
      let result = try credential(arguments, stdin: stdin)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
    }
    XCTAssertEqual(try credential(["list"]).stdout.split(separator: "\n").count, 2)
    XCTAssertEqual(try check(owner).status, 0, "the owner's pattern is unchanged")
  }

  func testTheOwnersPatternIsReplacedKeepingTheOthers() throws {
    try add("alice", alice)
    let taken = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap, stdin: alice)
    XCTAssertEqual(taken.status, 2, taken.stderr)
    XCTAssertTrue(taken.stderr.contains("that pattern is already another credential's"), taken.stderr)
    let grid = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath, "--grid", "4"] + cheap, stdin: "5-2-16-11")
    XCTAssertEqual(grid.status, 2, "the others were set on the owner's grid: \(grid.stderr)")
    let replaced = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath, "--argon-passes", "3"], stdin: "7-8-1-4-9-6")
    XCTAssertEqual(replaced.status, 0, replaced.stderr)
    XCTAssertTrue(replaced.stderr.contains("so the pattern keeps them (1 passes, 1 MiB)"), "said, not silent: \(replaced.stderr)")
    XCTAssertEqual(try check(owner).status, 3, "the old owner's pattern is gone")
    XCTAssertEqual(try check("7-8-1-4-9-6").stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertEqual(try check(alice).stdout, "{\"result\":\"unlocked\",\"credential\":\"alice\"}\n", "the others still hold")
  }

  func testAStateDirectoryFromBeforeWorksUnchanged() throws {
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/" + CredentialFile.name))
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    let right = try check(owner)
    XCTAssertEqual(right.status, 0)
    XCTAssertEqual(right.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertTrue(try entries().allSatisfy { $0.credential == "owner" }, "the owner alone: every entry names it")
    XCTAssertEqual(try credential(["list"]).stdout, CredentialCommandTests.ownerLine + "\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/" + CredentialFile.name), "nothing was migrated")
  }

  static let ownerLine = "{\"name\":\"owner\",\"role\":\"admin\",\"expires\":null,\"hours\":null}"

  func testOneFailureCounterForAllCredentials() throws {
    try add("alice", alice)
    try add("bob", bob)
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    XCTAssertEqual(try check("1-2-3-5").status, 3)
    let right = try check(alice)
    XCTAssertEqual(right.stdout, "{\"result\":\"unlocked\",\"credential\":\"alice\"}\n")
    XCTAssertEqual(try failures(), 0, "any credential's unlock clears the one count")
    for wrong in ["1-2-3-4", "1-2-3-5", "1-5-9-6", "1-4-7-8", "4-5-6-3"] { XCTAssertEqual(try check(wrong).status, 3) }
    XCTAssertEqual(try failures(), 5)
    XCTAssertEqual(try check(bob).status, 5, "the lockout holds for every credential")
    XCTAssertEqual(try check(owner).status, 5)
    let entries = try entries()
    XCTAssertEqual(entries.last?.event, .refused)
    let unlocked = entries.filter { $0.event == .unlocked }
    XCTAssertEqual(unlocked.map { $0.credential }, ["alice"])
    XCTAssertTrue(entries.filter { $0.event == .attempt || $0.event == .wrong }.allSatisfy { $0.credential == AuditEntry.unidentified },
      "before the verdict, and for a pattern that is nobody's, no credential is named")
  }

  /// `check` under libfaketime at `time` (UTC), with a configuration root of the
  /// test's own whose zone is UTC (it has no etc/localtime), so the judgement never
  /// depends on this machine's /etc.
  ///
  /// - Parameters:
  ///   - callerZone: the `TZ` the caller sets; libfaketime reads `time` in it, so
  ///     `time` is then the caller's local time, not UTC.
  ///   - root: a configuration root whose etc/localtime is the system zone.
  func checkAt(_ time: String, _ pattern: String, callerZone: String = "UTC", root: ConfigRoot? = nil) throws -> CommandResult {
    let root = try root ?? ConfigRoot()
    return try check(
      pattern,
      environment: [
        "LD_PRELOAD": try fakeTimeLibrary(), "FAKETIME": "@" + time, "TZ": callerZone, ConfigurationFiles.rootVariable: root.path,
      ])
  }

  /// libfaketime's path; skips the test where it cannot be used (called first in a
  /// test, as a skip thrown inside an assertion counts as a failure).
  func fakeTimeLibrary() throws -> String {
    let library = "/usr/lib/\(CredentialCommandTests.multiarch)/faketime/libfaketime.so.1"
    try XCTSkipUnless(FileManager.default.fileExists(atPath: library), "libfaketime is not installed (scripts/install-deps installs it)")
    try XCTSkipIf(pl_address_sanitizer() != 0, "libfaketime cannot be preloaded into an AddressSanitizer build")
    return library
  }

  func testAnExpiredCredentialIsJudgedWrongCountedAndLoggedWhy() throws {
    _ = try fakeTimeLibrary()
    try add("temp", alice, ["--expires", "2031-06-01T12:00"])
    let before = try checkAt("2031-06-01 11:59:00", alice)
    XCTAssertEqual(before.status, 0, before.stderr)
    XCTAssertEqual(before.stdout, "{\"result\":\"unlocked\",\"credential\":\"temp\"}\n")
    let after = try checkAt("2031-06-01 12:00:00", alice)
    XCTAssertEqual(after.status, 3, "expired: wrong")
    XCTAssertEqual(after.stdout, "{\"result\":\"wrong\",\"failures\":1}\n", "the same as any wrong pattern")
    XCTAssertEqual(try failures(), 1, "and counted")
    let wrong = try XCTUnwrap(try entries().last { $0.event == .wrong })
    XCTAssertEqual(wrong.credential, "temp")
    XCTAssertEqual(wrong.reason, "expired")
    XCTAssertEqual(try checkAt("2031-06-01 12:00:00", owner).status, 0, "the owner never expires")
  }

  func testOutsideItsHoursACredentialIsJudgedWrong() throws {
    _ = try fakeTimeLibrary()
    try add("day", bob, ["--hours", "Mon-Fri 08:00-18:00"])
    // 2031-06-02 is a Monday; 2031-06-07 a Saturday.
    XCTAssertEqual(try checkAt("2031-06-02 08:00:00", bob).status, 0)
    XCTAssertEqual(try checkAt("2031-06-02 18:00:00", bob).status, 3)
    XCTAssertEqual(try checkAt("2031-06-07 12:00:00", bob).status, 3, "Saturday")
    XCTAssertEqual(try checkAt("2031-06-06 17:59:00", bob).status, 0, "Friday")
    let wrong = try entries().filter { $0.event == .wrong }
    XCTAssertEqual(wrong.map { $0.reason }, ["outside-hours", "outside-hours"])
    XCTAssertTrue(wrong.allSatisfy { $0.credential == "day" })
    XCTAssertEqual(try failures(), 0, "Friday's unlock cleared the two failures")
  }

  func testAnUndrawableCredentialIsRefusedNamingTheMoveNotItsDots() throws {
    let refused = try credential(["add", "gate"], stdin: "4-1-9-6\n")
    XCTAssertEqual(refused.status, 2, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("move 2 jumps over a dot not yet joined"), refused.stderr)
    XCTAssertEqual(refused.stderr.filter { $0.isNumber }, "2", "no dot is named: \(refused.stderr)")
  }

  func testTheCallersTZMovesNeitherHoursNorExpiry() throws {
    _ = try fakeTimeLibrary()
    try add("day", bob, ["--hours", "Mon-Fri 08:00-18:00"])
    try add("temp", alice, ["--expires", "2031-06-01T12:00"])
    // 14:30 on Monday 2031-06-02 where the caller's TZ says, 00:30 UTC: outside the hours
    // in the system's zone (UTC here), inside them in the caller's.
    let early = try checkAt("2031-06-02 14:30:00", bob, callerZone: "XYZ-14")
    XCTAssertEqual(early.status, 3, "judged in the caller's zone: \(early.stdout)")
    // 00:30 on 2031-06-01 in the caller's TZ, 12:30 UTC: expired half an hour ago.
    let late = try checkAt("2031-06-01 00:30:00", alice, callerZone: "XYZ+12")
    XCTAssertEqual(late.status, 3, "judged in the caller's zone: \(late.stdout)")
    let wrong = try entries().filter { $0.event == .wrong }
    XCTAssertEqual(wrong.map { $0.reason }, ["outside-hours", "expired"])
  }

  func testHoursAreJudgedInTheSystemZoneFile() throws {
    _ = try fakeTimeLibrary()
    try add("day", bob, ["--hours", "Mon-Fri 08:00-18:00"])
    let root = try ConfigRoot()
    try ZoneFile.install(14 * 3600, under: root.url)
    // 00:30 UTC on Monday is 14:30 in the system's zone (UTC+14): inside the hours,
    // whatever the caller's TZ says.
    let inside = try checkAt("2031-06-02 00:30:00", bob, root: root)
    XCTAssertEqual(inside.status, 0, inside.stdout + inside.stderr)
    let stillInside = try checkAt("2031-06-01 12:30:00", bob, callerZone: "XYZ+12", root: root)
    XCTAssertEqual(stillInside.status, 0, "the caller's TZ does not move it out: \(stillInside.stdout)")
  }

  func testADuressCredentialUnlocksAsAnyOtherAndTheLogSaysDuress() throws {
    try add("panic", bob, ["--role", "duress"])
    let result = try check(bob)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "{\"result\":\"unlocked\",\"credential\":\"panic\"}\n")
    let unlocked = try XCTUnwrap(try entries().last)
    XCTAssertEqual(unlocked.event, .unlocked)
    XCTAssertEqual(unlocked.credential, "panic")
    XCTAssertEqual(unlocked.reason, "duress")
  }

  private static var multiarch: String {
    #if arch(arm64)
    return "aarch64-linux-gnu"
    #else
    return "x86_64-linux-gnu"
    #endif
  }
}
