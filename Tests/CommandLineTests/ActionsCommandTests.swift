import CShim
import CommandTestSupport
import Configuration
import Foundation
import VaultTestSupport
import XCTest

/// The hooks (on-unlock, on-wrong, on-lockout) and the door strike as `check` and
/// `replay` meet them: what a hook is given, as whom it runs, that nothing waits for
/// it, and that a replay never starts one. They are set in a configuration root's
/// /etc/patternlock.conf, as the trust rule wants when running as root (as CI does);
/// their options on the command line are refused then (testHookOptionsAreRefusedAsRoot).
final class ActionsCommandTests: XCTestCase {
  var sandbox: URL!
  /// Where hooks write what they saw: open to every user, as the hook runs as nobody.
  var drop: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  /// The trusted system configuration the keys are set in.
  var root: ConfigRoot!
  let right = "1-2-3-6-9\n"
  let wrong = "7-4-1-2-3\n"

  override func setUpWithError() throws {
    sandbox = try makeTemporaryDirectory(prefix: "actions-tests", permissions: 0o755)
    drop = sandbox.appendingPathComponent("drop")
    try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: drop.path)
    try VaultTestSupport.enrol([1, 2, 3, 6, 9], in: statePath)
    root = try ConfigRoot()
  }

  override func tearDown() { root.remove() }

  /// A hook script that records its arguments, user and environment in `drop/NAME`
  /// (written whole, then renamed, so a reader never sees half of it).
  func hook(_ name: String, sleeping seconds: Int = 0) throws -> String {
    let script = sandbox.appendingPathComponent("\(name).sh")
    let out = drop.appendingPathComponent(name).path
    try """
      #!/bin/sh
      sleep \(seconds)
      { echo "args=$*"; echo "uid=$(id -u)"; env | sort; } > \(out).tmp
      mv \(out).tmp \(out)

      """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return script.path
  }

  /// What the hook `name` recorded, once it has (within 20 s).
  func recorded(_ name: String) throws -> [String] {
    let path = drop.appendingPathComponent(name).path
    for _ in 0..<200 {
      if let text = try? String(contentsOfFile: path, encoding: .utf8) { return text.split(separator: "\n").map(String.init) }
      Thread.sleep(forTimeInterval: 0.1)
    }
    XCTFail("hook \(name) never ran")
    return []
  }

  /// Runs `check` with `actions` (`key = value` lines) as the [actions] of the trusted
  /// /etc/patternlock.conf.
  func check(_ pattern: String, _ actions: [String]) throws -> CommandResult {
    try root.write("etc/patternlock.conf", "[actions]\n" + actions.map { $0 + "\n" }.joined())
    return try PatternlockBinary.run(
      ["check", "--state-dir", statePath], stdin: pattern, environment: [ConfigurationFiles.rootVariable: root.path])
  }

  func testWrongPatternStartsOnWrongAsTheHookUserWithTheCountAndNeverThePattern() throws {
    let script = try hook("wrong")
    let result = try check(wrong, ["on-wrong = \(script) first second", "hook-user = nobody"])
    XCTAssertEqual(result.status, 3, result.stderr)
    let lines = try recorded("wrong")
    XCTAssertTrue(lines.contains("args=first second"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_EVENT=wrong"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_FAILURES=1"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_LOCKED_FOR_S=0"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_LOCKOUT=none"), "\(lines)")
    XCTAssertFalse(lines.contains { $0.contains("7-4-1") || $0.contains("74123") }, "the pattern reached the hook: \(lines)")
    if pl_getuid() == 0 {
      XCTAssertTrue(lines.contains("uid=65534"), "the hook runs as nobody, not root: \(lines)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("unlock").path))
  }

  func testTheFifthFailureStartsOnWrongThenOnLockoutWithItsLength() throws {
    let wrongHook = try hook("wrong"), lockoutHook = try hook("lockout")
    let options = ["on-wrong = \(wrongHook)", "on-lockout = \(lockoutHook)"]
    // Five different wrong patterns: a repeat within five minutes is not counted again.
    let wrongs = ["7-4-1-2-3\n", "7-4-1-2\n", "9-8-7-4\n", "3-2-1-4\n", "1-5-9-6\n"]
    for pattern in wrongs.prefix(4) { XCTAssertEqual(try check(pattern, options).status, 3) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("lockout").path), "no lockout before the fifth")
    XCTAssertEqual(try check(wrongs[4], options).status, 3)
    let lines = try recorded("lockout")
    XCTAssertTrue(lines.contains("PATTERNLOCK_EVENT=lockout"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_FAILURES=5"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_LOCKED_FOR_S=60"), "Android's first lockout is a minute: \(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_LOCKOUT=timed"), "\(lines)")
    // Refused attempts during the lockout start nothing more.
    try FileManager.default.removeItem(at: drop.appendingPathComponent("lockout"))
    XCTAssertEqual(try check("2-5-8-7\n", options).status, 5)
    Thread.sleep(forTimeInterval: 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("lockout").path))
  }

  func testUnlockStartsOnUnlockWithoutWaitingForIt() throws {
    let script = try hook("unlock", sleeping: 3)
    let started = Date()
    let result = try check(right, ["on-unlock = \(script)"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: drop.appendingPathComponent("unlock").path),
      "check returned before the hook's 3 s were over (it took \(Date().timeIntervalSince(started)) s)")
    let lines = try recorded("unlock")
    XCTAssertTrue(lines.contains("PATTERNLOCK_EVENT=unlock"), "\(lines)")
    XCTAssertTrue(lines.contains("PATTERNLOCK_FAILURES=0"), "\(lines)")
  }

  func testADuressUnlockLooksLikeAnUnlockAndAlsoStartsOnDuress() throws {
    let add = try PatternlockBinary.run(
      ["credential", "add", "panic", "--role", "duress", "--state-dir", statePath], stdin: "6-2-4-9\n",
      environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(add.status, 0, add.stderr)
    let unlock = try hook("unlock")
    let duress = try hook("duress")
    let actions = ["on-unlock = \(unlock)", "on-duress = \(duress)", "duress-opens = no"]

    let owner = try check(right, actions)
    XCTAssertEqual(owner.status, 0, owner.stderr)
    XCTAssertEqual(owner.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertTrue(try recorded("unlock").contains("PATTERNLOCK_CREDENTIAL=owner"))
    try FileManager.default.removeItem(atPath: drop.appendingPathComponent("unlock").path)

    let coerced = try check("6-2-4-9\n", actions)
    XCTAssertEqual(coerced.status, 0, "exit status as for any unlock: \(coerced.stderr)")
    XCTAssertEqual(coerced.stdout, "{\"result\":\"unlocked\",\"credential\":\"panic\"}\n", "the role is never said")
    let unlocked = try recorded("unlock")
    XCTAssertTrue(unlocked.contains("PATTERNLOCK_EVENT=unlock"), "\(unlocked)")
    XCTAssertTrue(unlocked.contains("PATTERNLOCK_CREDENTIAL=panic"), "\(unlocked)")
    let alarm = try recorded("duress")
    XCTAssertTrue(alarm.contains("PATTERNLOCK_EVENT=duress"), "\(alarm)")
    XCTAssertTrue(alarm.contains("PATTERNLOCK_CREDENTIAL=panic"), "\(alarm)")
    XCTAssertFalse(alarm.contains { $0.contains("6-2-4-9") || $0.contains("1-2-3-6-9") }, "never a pattern")
  }

  func testWithoutOnDuressADuressUnlockStartsWhatAnyUnlockStarts() throws {
    // What docs/security.md advises against onlookers with a shell: one on-unlock
    // program that tells a duress credential by its name, which only the hook user and
    // root can read, and no on-duress, whose process `ps` would show.
    let add = try PatternlockBinary.run(
      ["credential", "add", "panic", "--role", "duress", "--state-dir", statePath], stdin: "6-2-4-9\n",
      environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(add.status, 0, add.stderr)
    let unlock = try hook("unlock")
    let actions = ["on-unlock = \(unlock) door"]
    XCTAssertEqual(try check(right, actions).status, 0)
    let owner = try recorded("unlock")
    try FileManager.default.removeItem(atPath: drop.appendingPathComponent("unlock").path)
    XCTAssertEqual(try check("6-2-4-9\n", actions).status, 0)
    let coerced = try recorded("unlock")
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drop.path), ["unlock"], "one hook ran, no other")
    let visible = { (lines: [String]) in lines.filter { $0.hasPrefix("args=") || $0.hasPrefix("uid=") } }
    XCTAssertEqual(visible(coerced), visible(owner), "the same program, arguments and user as any unlock's")
    XCTAssertEqual(visible(owner), ["args=door", "uid=65534"])
    let differing = Set(coerced).symmetricDifference(Set(owner)).filter { !$0.hasPrefix("PWD=") && !$0.hasPrefix("_=") }
    XCTAssertEqual(differing, ["PATTERNLOCK_CREDENTIAL=panic", "PATTERNLOCK_CREDENTIAL=owner"], "only the name, in the environment")
  }

  func testTheOwnersUnlockStartsNoDuressHook() throws {
    let unlock = try hook("unlock")
    let duress = try hook("duress")
    XCTAssertEqual(try check(right, ["on-unlock = \(unlock)", "on-duress = \(duress)"]).status, 0)
    _ = try recorded("unlock")
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("duress").path))
  }

  func testAnUnknownHookUserOrAMissingGPIOChipRefusesToJudge() throws {
    let script = try hook("wrong")
    let user = try check(wrong, ["on-wrong = \(script)", "hook-user = no-such-user-here"])
    XCTAssertEqual(user.status, 1)
    XCTAssertEqual(
      user.stderr,
      "patternlock: hook-user no-such-user-here: there is no such user (create the user, or set hook-user to an existing one such as nobody)\n")
    let chip = try check(right, ["gpio-unlock = gpiochip99:4"])
    XCTAssertEqual(chip.status, 1)
    XCTAssertEqual(
      chip.stderr,
      "patternlock: gpio-unlock: cannot read GPIO chip /dev/gpiochip99: No such file or directory (is the GPIO chip there? 'ls /dev/gpiochip*' lists them; a line name or the chip's label survives renumbering)\n")
    XCTAssertEqual(chip.stdout, "", "nothing was judged")
    if !FileManager.default.fileExists(atPath: "/dev/gpiochip0") {
      let named = try check(right, ["gpio-unlock = DOOR_STRIKE 300"])
      XCTAssertEqual(named.status, 1)
      XCTAssertEqual(
        named.stderr,
        "patternlock: gpio-unlock: no GPIO chip in /dev (is the GPIO driver loaded? 'ls /dev/gpiochip*' lists them)\n")
    }
    XCTAssertEqual(try check(right, []).status, 0, "and nothing was counted either")
  }

  /// A replay judges a copy of the secret: the configured hooks never run.
  func testReplayNeverStartsAHook() throws {
    let script = try hook("wrong")
    try root.write("etc/patternlock.conf", "[actions]\non-wrong = \(script)\n")
    let result = try PatternlockBinary.run(
      ["replay", Captures.path("z-1235789"), "--state-dir", statePath], environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("\"result\":\"wrong\""), result.stdout)
    Thread.sleep(forTimeInterval: 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("wrong").path))
  }

  /// As root, a hook's option would let whoever may run `sudo patternlock check` run
  /// any program as any user; it is refused in one line, with exit status 2, before
  /// anything is judged.
  func testHookOptionsAreRefusedAsRoot() throws {
    guard pl_geteuid() == 0 else { throw XCTSkip("an ordinary user may give hook options: they run as that user") }
    let script = try hook("wrong")
    for (option, key, section) in [
      ("--on-wrong", "on-wrong", "actions"), ("--on-unlock", "on-unlock", "actions"), ("--on-lockout", "on-lockout", "actions"),
      ("--hook-user", "hook-user", "actions"), ("--gpio-unlock", "gpio-unlock", "actions"),
    ] {
      let value = key == "hook-user" ? "nobody" : key == "gpio-unlock" ? "gpiochip0:4" : script
      let result = try PatternlockBinary.run(["check", "--state-dir", statePath, option, value], stdin: wrong)
      XCTAssertEqual(result.status, 2, result.stderr)
      XCTAssertEqual(result.stdout, "", "nothing was judged")
      XCTAssertEqual(
        result.stderr,
        "patternlock: command line: \(option) acts as root, so running as root it is read only from the root-owned system configuration (put '\(key) = ...' under [\(section)] in /etc/patternlock.conf, owned by root and writable only by root)\n")
    }
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertFalse(FileManager.default.fileExists(atPath: drop.appendingPathComponent("wrong").path))
    XCTAssertEqual(try check(right, []).status, 0, "and no attempt was counted")
  }
}
