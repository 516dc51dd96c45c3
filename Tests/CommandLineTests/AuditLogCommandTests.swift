import LockEvents
import CommandTestSupport
import Foundation
import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// The audit log through the built binary: what each command appends, a kill at every
/// step, a log that cannot be written, rotation, `patternlock log`, the journal, and
/// that nothing in it tests a pattern.
final class AuditLogCommandTests: XCTestCase {
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  var logPath: String { statePath + "/" + AuditLog.name }
  let cheap = ["--argon-passes", "1", "--argon-memory-mib", "1"]
  let right = "6-3-8-1"

  override func setUpWithError() throws { sandbox = try makeTemporaryDirectory(prefix: "audit-tests", permissions: 0o755) }

  @discardableResult
  func setPattern(_ pattern: String) throws -> CommandResult {
    let run = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap, stdin: pattern)
    XCTAssertEqual(run.status, 0, run.stderr)
    return run
  }

  func check(_ pattern: String, environment: [String: String] = [:]) throws -> CommandResult {
    try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: pattern, environment: environment)
  }

  func log(_ extra: [String] = []) throws -> CommandResult {
    try PatternlockBinary.run(["log", "--state-dir", statePath] + extra)
  }

  /// The stored entries, oldest first.
  func entries() throws -> [AuditEntry] {
    let directory = try StateDirectory(opening: statePath, creating: false)
    return try AuditLog.lines(in: directory).compactMap { line in
      if case .entry(let entry) = line { return entry }
      return nil
    }
  }

  func events() throws -> [String] { try entries().map { "\($0.event.rawValue) \($0.failures ?? -1)" } }

  func failures() -> Int {
    guard let directory = try? StateDirectory(opening: statePath, creating: false),
      case .intact(let record) = AttemptsFile.load(from: directory)
    else { return -1 }
    return record.failures
  }

  func testWrongRightLockoutSetPatternAndResetAreLoggedInOrder() throws {
    try setPattern(right)
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    XCTAssertEqual(try check(right).status, 0)
    XCTAssertEqual(try events(), ["pattern-set 0", "attempt 1", "wrong 1", "attempt 2", "unlocked 2"])
    for wrong in ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "4-5-6-3"] { _ = try check(wrong) }
    let afterLockout = try events()
    XCTAssertEqual(Array(afterLockout.suffix(3)), ["attempt 5", "wrong 5", "lockout 5"])
    XCTAssertEqual(try entries().last?.reason, "60", "the lockout's length")
    XCTAssertEqual(try check(right).status, 5)
    XCTAssertEqual(try entries().last?.event, .refused)
    XCTAssertEqual(try entries().last?.reason, "locked-out")
    XCTAssertTrue(try entries().allSatisfy { $0.credential == "owner" })
    let mode = try FileManager.default.attributesOfItem(atPath: logPath)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)

    if getuid() == 0 {
      let reset = try PatternlockBinary.run(["reset-attempts", "--state-dir", statePath])
      XCTAssertEqual(reset.status, 0, reset.stderr)
      XCTAssertEqual(try events().last, "attempts-reset 5", "the count it cleared")
    }
    try setPattern("8-4-2-9")
    XCTAssertEqual(try entries().last?.event, .patternSet)
    XCTAssertEqual(try entries().last?.reason, "set-pattern")
  }

  /// A kill -9 at any step of a check leaves every counted attempt in the log (the
  /// entry is written before the count), and never shows an unlock.
  func testAKillAtEveryStepLeavesEachCountedAttemptLoggedAndNeverUnlocks() throws {
    try setPattern(right)
    let logSteps = Array(AuditLog.Step.opened.rawValue...AuditLog.Step.synced.rawValue)
    let steps = logSteps + Array(1...StateDirectory.WriteStep.syncedDirectory.rawValue) + [20, 21]
    for pattern in ["1-2-3-4", right] {
      for step in steps {
        // A clean count each time, so no lockout comes in between.
        try AttemptsFile.save(.clean, to: try StateDirectory(opening: statePath, creating: false))
        let logged = try entries().filter { $0.event == .attempt }.count
        let counted = failures()
        let run = try check(pattern, environment: ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": "\(step)"])
        XCTAssertEqual(run.status, 86, "step \(step): \(run.stderr)")
        XCTAssertEqual(run.stdout, "", "step \(step): no result before the log holds it")
        let loggedNow = try entries().filter { $0.event == .attempt }.count - logged
        let countedNow = failures() - counted
        XCTAssertTrue(countedNow == 0 || countedNow == 1, "step \(step)")
        XCTAssertGreaterThanOrEqual(loggedNow, countedNow, "step \(step) with \(pattern): a counted attempt is in the log")
        let written = step >= AuditLog.Step.wroteAll.rawValue || step < AuditLog.Step.rotated.rawValue
        XCTAssertEqual(loggedNow, step == StateDirectory.WriteStep.locked.rawValue || !written ? 0 : 1, "step \(step)")
        if loggedNow == 1 { XCTAssertEqual(try entries().last?.event, .attempt, "step \(step): no verdict before the kill") }
      }
    }
    // A torn line (the kill came between the halves of a write) is reported, and the
    // entries after it stand on lines of their own.
    try AttemptsFile.save(.clean, to: try StateDirectory(opening: statePath, creating: false))
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    let printed = try log()
    XCTAssertEqual(printed.status, 1)
    XCTAssertTrue(printed.stderr.contains("is not an entry"), printed.stderr)
    XCTAssertTrue(printed.stdout.hasSuffix("wrong credential=owner failures=\(failures())\n"), printed.stdout)
    XCTAssertFalse(printed.stdout.contains("unlocked"), "no kill ever let an unlock through")
  }

  /// An entry that cannot be written is "not judged" (exit 8), as a count that cannot
  /// be written is: the right pattern does not unlock, and the counted failure stays.
  func testALogThatCannotBeWrittenMeansNotJudged() throws {
    try setPattern(right)
    try FileManager.default.removeItem(atPath: logPath)
    try FileManager.default.createDirectory(atPath: logPath, withIntermediateDirectories: false)
    let run = try check(right)
    XCTAssertEqual(run.status, 8, run.stderr)
    XCTAssertEqual(run.stdout, "")
    XCTAssertTrue(run.stderr.contains("audit log"), run.stderr)
    XCTAssertEqual(failures(), 0, "the entry comes before the count: neither counted nor verified")
    try FileManager.default.removeItem(atPath: logPath)
    // A log another user may read is not trusted either.
    FileManager.default.createFile(atPath: logPath, contents: Data("x\n".utf8), attributes: [.posixPermissions: 0o644])
    let open = try check(right)
    XCTAssertEqual(open.status, 8, open.stderr)
    XCTAssertTrue(open.stderr.contains("cannot be trusted"), open.stderr)
    try FileManager.default.removeItem(atPath: logPath)
    XCTAssertEqual(try check(right).status, 0)
  }

  func testRotationKeepsTwoFilesAndLogReadsBothInOrder() throws {
    try setPattern(right)
    // Fill audit.log to its bound with entries an hour old.
    let old = AuditEntry(event: .wrong, failures: 1, wallSeconds: Int64(Date().timeIntervalSince1970) - 3600)
    let line = old.jsonLine + "\n"
    let count = Int(AuditLog.rotationBytes) / line.utf8.count + 1
    let filled = try String(contentsOfFile: logPath, encoding: .utf8) + String(repeating: line, count: count)
    try Data(filled.utf8).write(to: URL(fileURLWithPath: logPath))
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    let rotated = statePath + "/" + AuditLog.rotatedName
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: rotated)[.size] as? Int, filled.utf8.count)
    XCTAssertEqual(try events().suffix(2), ["attempt 1", "wrong 1"])
    XCTAssertEqual(try events().first, "pattern-set 0", "audit.log.1 is read first")
    // Filled again, the older file goes: at most two files.
    try Data(String(repeating: line, count: count).utf8).write(to: URL(fileURLWithPath: logPath))
    XCTAssertEqual(try check("1-2-3-5").status, 3)
    XCTAssertFalse(try events().contains("pattern-set 0"))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: statePath).filter { $0.hasPrefix("audit") }.sorted(), ["audit.log", "audit.log.1"])
  }

  func testLogSinceJSONAndBadSince() throws {
    try setPattern(right)
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    let json = try log(["--json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    XCTAssertEqual(json.stdout, try String(contentsOfFile: logPath, encoding: .utf8))
    for line in json.stdout.split(separator: "\n") {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      XCTAssertEqual(object["credential"] as? String, "owner")
      XCTAssertNotNil(object["failures"] as? Int)
      XCTAssertNotNil(object["time"] as? String)
    }
    let human = try log()
    XCTAssertEqual(human.stdout.split(separator: "\n").count, 3)
    XCTAssertTrue(human.stdout.contains(" wrong credential=owner failures=1"), human.stdout)
    let future = try log(["--since", "2099-01-01T00:00"])
    XCTAssertEqual(future.status, 0)
    XCTAssertEqual(future.stdout, "")
    let past = try log(["--since", "2000-02-29T23:59:59"])
    XCTAssertEqual(past.stdout, human.stdout)
    for bad in ["yesterday", "2026-02-30T00:00", "2026-12-01 08:00", "2026-12-01T24:00"] {
      let run = try log(["--since", bad])
      XCTAssertEqual(run.status, 2, bad)
      XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
      XCTAssertEqual(run.stdout, "")
    }
    XCTAssertEqual(UTCTime.parse("2026-12-02T20:55:26"), 1_796_244_926)
    XCTAssertEqual(UTCTime.format(1_796_244_926), "2026-12-02T20:55:26Z")
    XCTAssertEqual(UTCTime.format(951_868_800), "2000-03-01T00:00:00Z")
  }

  func testTheLogHoldsNoPatternNorItsDerivation() throws {
    try setPattern(right)
    XCTAssertEqual(try check("1-2-3-4").status, 3)
    XCTAssertEqual(try check(right).status, 0)
    let text = try String(contentsOfFile: logPath, encoding: .utf8)
    let directory = try StateDirectory(opening: statePath, creating: false)
    let enrolled = try EnrolledPattern.load(from: directory)
    for pattern in [right, "1-2-3-4"] {
      XCTAssertFalse(text.contains(pattern), "the log holds a pattern")
      XCTAssertFalse(text.contains(pattern.replacingOccurrences(of: "-", with: "")), "the log holds a pattern")
      let output = try XCTUnwrap(enrolled.derive(DotSequence(pattern.split(separator: "-").map { Int($0)! })).withOutput { Array($0) })
      let hex = HexText.encode(bytes: output)
      XCTAssertFalse(text.contains(hex), "the log holds an Argon2id output")
      XCTAssertFalse(text.contains(String(hex.prefix(16))), "the log holds part of an Argon2id output")
    }
  }

  /// Each entry goes to the journal too, in its native protocol, with its fields.
  func testEachEntryGoesToTheJournalWithItsFields() throws {
    try setPattern(right)
    let socketPath = sandbox.appendingPathComponent("journal").path
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    XCTAssertEqual(bound, 0)
    XCTAssertEqual(try check("1-2-3-4", environment: ["PATTERNLOCK_TEST_JOURNAL_DATAGRAM_SOCKET": socketPath]).status, 3)
    var received: [String] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if n <= 0 { break }
      received.append(String(decoding: buffer[..<n], as: UTF8.self))
    }
    XCTAssertEqual(received.count, 2, "attempt and wrong")
    let wrong = try XCTUnwrap(received.last)
    XCTAssertTrue(wrong.contains("\nMESSAGE_ID=\(AuditEntry.Event.wrong.messageID)\n"), wrong)
    XCTAssertTrue(wrong.contains("\nPATTERNLOCK_EVENT=wrong\n"), wrong)
    XCTAssertTrue(wrong.contains("\nPATTERNLOCK_CREDENTIAL=owner\n"), wrong)
    XCTAssertTrue(wrong.contains("\nPATTERNLOCK_FAILURES=1\n"), wrong)
    XCTAssertEqual(Set(AuditEntry.Event.allCases.map(\.messageID)).count, AuditEntry.Event.allCases.count)
  }
}
