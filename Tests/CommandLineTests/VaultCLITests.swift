import CShim
import CommandTestSupport
import Configuration
import Foundation
import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// The built binary: set-pattern, check, reset-attempts, replay --state-dir, and a
/// crash at every step of every write.
final class VaultCLITests: XCTestCase {
  typealias S = VaultTestSupport
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  let cheap = ["--argon-passes", "1", "--argon-memory-mib", "1"]

  override func setUpWithError() throws { sandbox = try makeTemporaryDirectory(prefix: "vault-tests", permissions: 0o755) }

  func setPattern(_ pattern: String, _ extra: [String] = []) throws -> CommandResult {
    try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap + extra, stdin: pattern)
  }

  func check(_ pattern: String, environment: [String: String] = [:]) throws -> CommandResult {
    try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: pattern, environment: environment)
  }

  func attempts() -> AttemptsState {
    guard let directory = try? StateDirectory(opening: statePath, creating: false) else { return .damaged(problem: "no directory") }
    return AttemptsFile.load(from: directory)
  }

  func testSetPatternReadsStandardInputAndCheckUnlocks() throws {
    let set = try setPattern("6-3-8-1\n")
    XCTAssertEqual(set.status, 0, set.stderr)
    XCTAssertEqual(
      set.stdout,
      "pattern set in \(statePath) (3x3 grid, at least 4 dots)\nstrength: found within about 100,000 guesses in an attacker's order; the lock allows 20\n")
    let ok = try check("6-3-8-1\n")
    XCTAssertEqual(ok.status, 0, ok.stderr)
    XCTAssertEqual(ok.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertEqual(ok.stderr, "")
  }

  func testPatternOnTheCommandLineIsRefusedWithoutEchoingIt() throws {
    for command in ["set-pattern", "check"] {
      let run = try PatternlockBinary.run([command, "--state-dir", statePath, "7-4-1-2-3"], stdin: "7-4-1-2-3")
      XCTAssertEqual(run.status, 2, command)
      XCTAssertTrue(run.stderr.hasPrefix("patternlock: \(command): the pattern is read from standard input"), run.stderr)
      XCTAssertFalse(run.stderr.contains("7-4-1"), "the refused pattern is not repeated: \(run.stderr)")
      XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath), "nothing was stored")
  }

  func testSetPatternRefusesBadInputWithOneLine() throws {
    let cases: [(String, [String], String)] = [
      ("1-2-3\n", [], "fewer than the minimum of 4"),
      ("1-2-3-4\n", ["--min-dots", "5"], "fewer than the minimum of 5"),
      ("1-2-10-3\n", [], "outside 1...9"),
      ("1-2-2-3\n", [], "used twice"),
      ("", [], "it is empty"),
      ("1-2-3-6\n", ["--grid", "8"], "--grid cannot be '8': it takes a whole number from 3 to 7"),
      ("1-2-3-6\n", ["--min-dots", "10"], "--min-dots: 10 is more than the 9 dots of a 3x3 grid"),
      ("1-2-3-6\n", ["--bogus"], "unknown option '--bogus'"),
      ("1-3-9-7\n", [], "the pattern cannot be drawn: move 1 jumps over a dot not yet joined, which a drawn pattern joins on the way (include that dot in the move, or choose another move)"),
      ("4-1-9-6\n", [], "move 2 jumps over a dot not yet joined"),
      ("1-2-3-9-7\n", [], "move 3 jumps over a dot not yet joined"),
      (String(repeating: "1-", count: 200), [], "longer than 255 bytes"),
    ]
    for (input, extra, message) in cases {
      let run = try setPattern(input, extra)
      XCTAssertEqual(run.status, 2, "\(extra) \(input)")
      XCTAssertTrue(run.stderr.hasPrefix("patternlock: ") && run.stderr.contains(message), run.stderr)
      XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/pattern"))
  }

  func testAnUndrawablePatternsRefusalNamesNoDot() throws {
    for (input, move) in [("1-3-9-7", 1), ("4-1-9-6", 2), ("1-2-3-9-7", 3), ("5-1-2-3-7-9", 5)] {
      let run = try setPattern(input + "\n")
      XCTAssertEqual(run.status, 2, input)
      XCTAssertTrue(run.stderr.contains("move \(move) jumps over a dot not yet joined"), run.stderr)
      let digits = run.stderr.filter { $0.isNumber }
      XCTAssertEqual(digits, "\(move)", "the move's number is the message's only digit: \(run.stderr)")
    }
  }

  func testCheckReportsEachResultWithItsExitStatus() throws {
    XCTAssertEqual(try setPattern("6-3-8-1").status, 0)
    let short = try check("1-2-3")
    XCTAssertEqual(short.status, 4)
    XCTAssertEqual(short.stdout, "{\"result\":\"too-short\"}\n", "the dots are never printed")
    let wrongs = ["1-2-3-4", "1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "2-5-8-9"]
    var lines: [String] = []
    var statuses: [Int32] = []
    for w in wrongs {
      let run = try check(w)
      lines.append(run.stdout)
      statuses.append(run.status)
    }
    XCTAssertEqual(statuses, [3, 3, 3, 3, 3, 3])
    XCTAssertEqual(lines, [
      "{\"result\":\"wrong\",\"failures\":1}\n",
      "{\"result\":\"wrong\"}\n",
      "{\"result\":\"wrong\",\"failures\":2}\n",
      "{\"result\":\"wrong\",\"failures\":3}\n",
      "{\"result\":\"wrong\",\"failures\":4}\n",
      "{\"result\":\"wrong\",\"retry_in_s\":60,\"failures\":5}\n",
    ])
    let locked = try check("6-3-8-1")
    XCTAssertEqual(locked.status, 5)
    XCTAssertEqual(locked.stdout, "{\"result\":\"locked-out\",\"retry_in_s\":60}\n")
    let bad = try check("1-2-x")
    XCTAssertEqual(bad.status, 2)
    XCTAssertEqual(bad.stdout, "")
  }

  func testCheckWithoutAPatternRefuses() throws {
    let none = try check("1-2-3-6")
    XCTAssertEqual(none.status, 6)
    XCTAssertTrue(none.stderr.contains("does not exist"), none.stderr)
    try FileManager.default.createDirectory(atPath: statePath, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let empty = try check("1-2-3-6")
    XCTAssertEqual(empty.status, 6)
    XCTAssertEqual(empty.stderr, "patternlock: no pattern is set in \(statePath) (set one with: echo 1-2-3-6-9 | patternlock set-pattern --state-dir \(statePath))\n")
  }

  func testDamagedAttemptsFileLocksAndSaysSoOnce() throws {
    XCTAssertEqual(try setPattern("6-3-8-1").status, 0)
    try Data("patternlock-attempts 1\nfailures 0\n".utf8).write(to: URL(fileURLWithPath: statePath + "/attempts"))
    let run = try check("6-3-8-1")
    XCTAssertEqual(run.status, 5)
    XCTAssertEqual(run.stdout, "{\"result\":\"locked-out\"}\n")
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1)
    XCTAssertTrue(run.stderr.contains("cannot be trusted") && run.stderr.contains("reset-attempts"), run.stderr)
  }

  func testResetAttemptsIsRootOnlyAndEndsALockout() throws {
    try XCTSkipUnless(getuid() == 0, "needs root to test both sides")
    XCTAssertEqual(try setPattern("6-3-8-1").status, 0)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: statePath + "/attempts"))
    XCTAssertEqual(try check("6-3-8-1").status, 5)
    // Make the binary reachable for "nobody" (the sandbox is 0755; the build tree may not be).
    let copy = sandbox.appendingPathComponent("patternlock-copy")
    try FileManager.default.copyItem(at: PatternlockBinary.url(), to: copy)
    let nobody = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534", "--clear-groups", copy.path, "reset-attempts", "--state-dir", statePath])
    XCTAssertEqual(nobody.status, 7, nobody.stderr)
    XCTAssertEqual(nobody.stderr, "patternlock: reset-attempts: only root may reset the attempt counter (run it as root, such as with sudo)\n")
    XCTAssertEqual(try check("6-3-8-1").status, 5, "still locked")

    let reset = try PatternlockBinary.run(["reset-attempts", "--state-dir", statePath])
    XCTAssertEqual(reset.status, 0, reset.stderr)
    XCTAssertEqual(try check("6-3-8-1").status, 0)
  }

  /// Crashes `check` (a counted wrong pattern) after each write step and checks the
  /// attempts file holds the old or the new count, never damage.
  func testCrashAtEveryWriteStepKeepsOldOrNewAttempts() throws {
    XCTAssertEqual(try setPattern("6-3-8-1").status, 0)
    var seenOld = false
    var seenNew = false
    for step in 1...StateDirectory.WriteStep.syncedDirectory.rawValue {
      let before: Int
      guard case .intact(let record) = attempts() else { return XCTFail("damaged before step \(step)") }
      before = record.failures
      let wrong = ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "4-5-6-3", "7-8-9-6", "3-2-1-4", "6-2-4-9", "2-5-8-7"][step - 1]
      let run = try check(wrong, environment: ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": "\(step)"])
      XCTAssertEqual(run.status, 86, "step \(step) must crash: \(run.stderr)")
      XCTAssertEqual(run.stdout, "", "step \(step): no result is shown before it is persisted")
      guard case .intact(let after) = attempts() else { return XCTFail("step \(step) left a damaged attempts file") }
      XCTAssertTrue(after.failures == before || after.failures == before + 1, "step \(step): \(before) -> \(after.failures)")
      if after.failures == before { seenOld = true } else { seenNew = true }
      let temporaries = try FileManager.default.contentsOfDirectory(atPath: statePath).filter { $0.contains(".tmp") }
      XCTAssertEqual(
        temporaries.count, (2...7).contains(step) ? 1 : 0,
        "step \(step): one stale temporary while its file is open, none before or after (a crash's are removed at the next lock)")
      if step <= StateDirectory.WriteStep.closedFile.rawValue {
        XCTAssertEqual(after.failures, before, "before the rename the old file stands (step \(step))")
      } else {
        XCTAssertEqual(after.failures, before + 1, "after the rename the new file stands (step \(step))")
      }
    }
    XCTAssertTrue(seenOld && seenNew)
    _ = try check("1-2-3-4", environment: ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": "3"])
    // Stale temporaries do not block the next write and go with the next lock.
    let next = try check("5-4-7-8")
    XCTAssertEqual(next.status, 3, next.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: statePath).filter { $0.contains(".tmp") }, [])
  }

  /// Gatekeeper's order: the failure is on disk before the hash is verified, so a
  /// crash (or a kill -9, or a power cut) between the two never gives a free guess,
  /// even with the right pattern; only the write after a verified match takes it back.
  func testACrashBetweenCountingAndVerifyingLeavesTheAttemptCounted() throws {
    XCTAssertEqual(try setPattern("6-3-8-1").status, 0)
    let seam = ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": "20"]
    for (n, pattern) in ["1-2-3-4", "6-3-8-1", "6-3-8-1"].enumerated() {
      let run = try check(pattern, environment: seam)
      XCTAssertEqual(run.status, 86, run.stderr)
      XCTAssertEqual(run.stdout, "")
      guard case .intact(let record) = attempts() else { return XCTFail("damaged") }
      XCTAssertEqual(record.failures, n + 1, "attempt \(n + 1) with \(pattern) is counted before it is verified")
    }
    XCTAssertEqual(try check("6-3-8-1").status, 0)
    guard case .intact(let record) = attempts() else { return XCTFail("damaged") }
    XCTAssertEqual(record.failures, 0, "a verified match clears the count")
  }

  func testCrashAtEveryStepOfFirstEnrolmentNeverLeavesAPatternWithoutAttempts() throws {
    for step in 1...(2 * StateDirectory.WriteStep.syncedDirectory.rawValue) {
      try? FileManager.default.removeItem(atPath: statePath)
      // Two files are written; steps 1-9 hit the attempts file, 10-18 the pattern file.
      let stepInFile = (step - 1) % StateDirectory.WriteStep.syncedDirectory.rawValue + 1
      let environment = ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": "\(stepInFile)"]
      if step > StateDirectory.WriteStep.syncedDirectory.rawValue {
        // Crash in the second write: let a first run leave the attempts file, then
        // remove its pattern so the crashing run writes only the pattern.
        XCTAssertEqual(try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap, stdin: "6-2-4-9").status, 0)
        try FileManager.default.removeItem(atPath: statePath + "/pattern")
      }
      let run = try PatternlockBinary.run(["set-pattern", "--state-dir", statePath] + cheap, stdin: "6-3-8-1", environment: environment)
      XCTAssertEqual(run.status, 86, "step \(step)")
      let directory = try StateDirectory(opening: statePath, creating: false)
      let enrolled = try? EnrolledPattern.load(from: directory)
      if let enrolled {
        XCTAssertTrue(enrolled.matches(DotSequence([6, 3, 8, 1])), "step \(step)")
        guard case .intact = AttemptsFile.load(from: directory) else { return XCTFail("step \(step): pattern without attempts") }
      }
      XCTAssertEqual(enrolled != nil, stepInFile >= StateDirectory.WriteStep.renamed.rawValue && step > StateDirectory.WriteStep.syncedDirectory.rawValue, "step \(step)")
    }
  }

  /// Sets the pattern the captures draw, a commonly chosen one, with the enrolment
  /// guard off in this test's own system configuration.
  private func setCapturedPattern() throws -> CommandResult {
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = off\n")
    return try PatternlockBinary.run(
      ["set-pattern", "--state-dir", statePath] + cheap, stdin: "3-2-1-4-7", environment: [ConfigurationFiles.rootVariable: root.path])
  }

  func testReplayWithStateDirJudgesEachGestureButNeverChangesTheState() throws {
    XCTAssertEqual(try setCapturedPattern().status, 0)
    let both = try PatternlockBinary.run(["replay", Captures.path("two-gestures"), "--state-dir", statePath])
    XCTAssertEqual(both.status, 0, both.stderr)
    XCTAssertEqual(both.stdout, "{\"result\":\"too-short\"}\n{\"result\":\"unlocked\"}\n", "results only: never the dots")

    for wrong in ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8"] { XCTAssertEqual(try check(wrong).status, 3) }
    let before = try Data(contentsOf: URL(fileURLWithPath: statePath + "/attempts"))
    let fifth = try PatternlockBinary.run(["replay", Captures.path("l-shape-1236"), "--state-dir", statePath])
    XCTAssertEqual(fifth.stdout, "{\"result\":\"wrong\",\"retry_in_s\":60,\"failures\":5}\n")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: statePath + "/attempts")), before, "a replay's guess is never saved")
    XCTAssertEqual(try check("2-5-8-9").status, 3, "the real 5th failure")
    // A new replay is a restart: the lockout begins again at its first event, so the
    // right pattern 2 s into the recording is refused with 60 - 2 s... rounded up.
    let locked = try PatternlockBinary.run(["replay", Captures.path("two-gestures"), "--state-dir", statePath])
    let lines = locked.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, locked.stdout)
    for line in lines {
      XCTAssertTrue(line.contains("\"result\":\"locked-out\",\"retry_in_s\":"), line)
      let seconds = Int(line.split(separator: ":").last!.dropLast())!
      XCTAssertTrue(seconds > 50 && seconds <= 60, line)
    }
    guard case .intact(let record) = attempts() else { return XCTFail("attempts damaged") }
    XCTAssertEqual(record.failures, 5)
  }

  func testReplayRefusesAPatternSetForAnotherGrid() throws {
    XCTAssertEqual(try setPattern("8-4-2-9").status, 0)
    let run = try PatternlockBinary.run(["replay", Captures.path("two-gestures"), "--state-dir", statePath, "--grid", "4"])
    XCTAssertEqual(run.status, 2)
    XCTAssertEqual(run.stdout, "")
    XCTAssertEqual(run.stderr, "patternlock: the pattern was set for a 3x3 grid but a 4x4 grid is in use (pass --grid 3, or set the pattern again)\n")
  }
}

/// A `check` waiting for its pattern already cannot dump core: RLIMIT_CORE is 0.
final class CoreDumpTests: XCTestCase {
  func testCheckHoldsThePatternWithCoreDumpsOff() throws {
    let sandbox = try makeTemporaryDirectory(prefix: "core", permissions: 0o755)
    let state = sandbox.appendingPathComponent("state").path
    let set = try PatternlockBinary.run(["set-pattern", "--state-dir", state, "--argon-passes", "1", "--argon-memory-mib", "1"], stdin: "6-3-8-1")
    XCTAssertEqual(set.status, 0, set.stderr)
    let process = Process()
    process.executableURL = try PatternlockBinary.url()
    process.arguments = ["check", "--state-dir", state]
    process.environment = ConfigRoot.isolatedEnvironment()
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    // Soft and hard limit both 0 (the soft one often is by default; the hard one is not).
    func coreLimits() -> [Substring] {
      let limits = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)) ?? ""
      let line = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") } ?? ""
      return Array(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2))
    }
    for _ in 0..<100 where coreLimits() != ["0", "0"] { usleep(20_000) }
    XCTAssertEqual(coreLimits(), ["0", "0"])
    if getuid() == 0 && pl_address_sanitizer() == 0 {
      // Root locks all of its memory, so the pattern never reaches swap (not under
      // AddressSanitizer, whose shadow memory cannot be locked; this test binary and the
      // patternlock it runs are built alike).
      func lockedKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let locked = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") } ?? ""
        return Int(locked.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
      }
      for _ in 0..<100 where lockedKilobytes() == 0 { usleep(20_000) }
      XCTAssertGreaterThan(lockedKilobytes(), 0, "VmLck of a waiting check")
    }
    try input.fileHandleForWriting.write(contentsOf: Data("6-2-4-9\n".utf8))
  }
}

/// `patternlock status`: what monitoring reads, without judging anything.
final class StatusCommandTests: XCTestCase {
  func testStatusReportsPatternFailuresAndTheLockoutLeft() throws {
    let sandbox = try makeTemporaryDirectory(prefix: "status", permissions: 0o755)
    let state = sandbox.appendingPathComponent("state").path
    func status() throws -> [String: Any] {
      let run = try PatternlockBinary.run(["status", "--state-dir", state])
      XCTAssertEqual(run.status, 0, run.stderr)
      XCTAssertEqual(run.stdout.filter { $0 == "\n" }.count, 1, run.stdout)
      return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }
    var now = try status()
    XCTAssertEqual(now["pattern"] as? String, "none")
    XCTAssertEqual(now["state_dir"] as? String, state)
    let set = try PatternlockBinary.run(["set-pattern", "--state-dir", state, "--argon-passes", "1", "--argon-memory-mib", "1"], stdin: "6-3-8-1")
    XCTAssertEqual(set.status, 0, set.stderr)
    now = try status()
    XCTAssertEqual(now["pattern"] as? String, "set")
    XCTAssertEqual(now["attempts"] as? String, "intact")
    XCTAssertEqual(now["failures"] as? Int, 0)
    XCTAssertEqual(now["lockout"] as? String, "none")
    let before = try Data(contentsOf: URL(fileURLWithPath: state + "/attempts"))
    for wrong in ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "2-5-8-9"] {
      XCTAssertEqual(try PatternlockBinary.run(["check", "--state-dir", state], stdin: wrong).status, 3)
    }
    now = try status()
    XCTAssertEqual(now["failures"] as? Int, 5)
    XCTAssertEqual(now["lockout"] as? String, "timed")
    let left = try XCTUnwrap(now["locked_for_s"] as? Int)
    XCTAssertTrue(left > 50 && left <= 60, "\(left)")
    XCTAssertEqual(try status()["failures"] as? Int, 5, "status counts nothing")
    try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: state + "/attempts"))
    now = try status()
    XCTAssertEqual(now["attempts"] as? String, "damaged")
    XCTAssertEqual(now["lockout"] as? String, "until-reset")
    XCTAssertNotEqual(before, try Data(contentsOf: URL(fileURLWithPath: state + "/attempts")))
  }

  func testStatusAsAnotherUserSaysWhoMayReadItAndWhereHooksFindTheCounts() throws {
    try XCTSkipUnless(pl_getuid() == 0, "needs root to run as another user")
    let setpriv = "/usr/bin/setpriv"
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is missing")
    let sandbox = try makeTemporaryDirectory(prefix: "status-nobody", permissions: 0o755)
    let state = sandbox.appendingPathComponent("state").path
    XCTAssertEqual(try PatternlockBinary.run(["set-pattern", "--state-dir", state] + ["--argon-passes", "1", "--argon-memory-mib", "1"], stdin: "6-3-8-1").status, 0)
    let binary = try PatternlockBinary.url().path
    let run = try ChildProcess.run(
      URL(fileURLWithPath: setpriv), ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "status", "--state-dir", state])
    try XCTSkipIf(run.stderr.contains("Permission denied") && run.stderr.contains("execv"), "nobody cannot run the test binary here")
    XCTAssertEqual(run.status, 7, run.stderr)
    XCTAssertEqual(run.stdout, "")
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("sudo patternlock status"), run.stderr)
    XCTAssertTrue(run.stderr.contains("PATTERNLOCK_FAILURES"), run.stderr)
  }
}
