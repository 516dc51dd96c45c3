import CommandTestSupport
import Foundation
import XCTest

/// `patternlock password-agent` with the real `systemd-ask-password` asking: a PIN
/// request gets the lock screen with its message; a passphrase request never does.
/// (The verdicts read from the asker are in PasswordRequestJudgeTests.)
final class PasswordAgentCommandTests: XCTestCase {
  func testWithNothingAskedItEndsAtOnce() throws {
    try requireAsker()
    let notify = try NotifyListener(in: makeTemporaryDirectory(prefix: "agent-notify"))
    let result = try PatternlockBinary.run(["password-agent", "--headless", "320x240"], environment: notify.environment)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "password-agent: no request for a PIN is pending\n")
    XCTAssertEqual(notify.received(), ["READY=1"], "with no PIN to ask for, what waits for the agent may start")
  }

  /// The lock comes up for the request, its message under the prompt; `--headless`
  /// stops it after the first frame, which is no answer: the asker still waits.
  func testAPINRequestGetsTheLockScreenWithItsMessage() throws {
    try requireAsker()
    let asker = try ask("Please enter LUKS2 token PIN:", id: "patternlock-agent-test:\(getpid())-pin", timeout: 60)
    defer { asker.terminate() }
    try waitForRequest(id: "patternlock-agent-test:\(getpid())-pin")
    let notify = try NotifyListener(in: makeTemporaryDirectory(prefix: "agent-notify"))
    let result = try PatternlockBinary.run(["password-agent", "--headless", "320x240"], environment: notify.environment)
    XCTAssertEqual(result.status, 1, "a lock stopped before any answer is no success: \(result.stderr)")
    // The console's agent is ordered after this one in the initramfs: ready at the
    // lock's first frame, it would take the PIN request from the terminal behind the lock.
    XCTAssertFalse(notify.received().contains("READY=1"), "ready while a PIN is still asked for")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "password-agent: asking for the pattern: Please enter LUKS2 token PIN:")
    XCTAssertTrue(lines.contains("patternlock: showing the lock on memory (headless, 320x240, xrgb8888, fbdev)"), result.stdout)
    XCTAssertFalse(lines.contains("unlocked"), "answering a request is no unlock")
    XCTAssertTrue(asker.isRunning, "nothing was answered")
  }

  /// A request from systemd-cryptsetup names its disk on the lock screen, read from the
  /// asker's command line (a token's PIN request says no disk). The asker here is a
  /// process under systemd-cryptsetup's name and arguments (a copy of `yes`, which keeps
  /// running), and its request is written as systemd writes one.
  func testTheDisksNameFromTheAskersCommandLine() throws {
    try requireAsker()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let renamed = directory.appendingPathComponent("systemd-cryptsetup")
    try FileManager.default.copyItem(atPath: "/usr/bin/yes", toPath: renamed.path)
    let asker = Process()
    asker.executableURL = renamed
    asker.arguments = ["attach", "root", "/dev/vda2", "none", "luks,tpm2-device=auto"]
    asker.standardOutput = FileHandle.nullDevice
    try asker.run()
    defer { asker.terminate() }
    let requests = "/run/systemd/ask-password"
    try FileManager.default.createDirectory(atPath: requests, withIntermediateDirectories: true)
    let file = requests + "/ask.patternlock-test-\(getpid())"
    try Data("[Ask]\nPID=\(asker.processIdentifier)\nSocket=\(directory.path)/sck\nAcceptCached=1\nEcho=0\nNotAfter=0\nMessage=Please enter LUKS2 token PIN:\nIcon=drive-harddisk\n".utf8)
      .write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let result = try PatternlockBinary.run(["password-agent", "--headless", "320x240"])
    XCTAssertEqual(
      result.stdout.split(separator: "\n").first.map(String.init),
      "password-agent: asking for the pattern: Please enter LUKS2 token PIN: root (/dev/vda2)")
  }

  /// A passphrase is the keyboard's: the display is left to the console's agent, and
  /// the agent ends once the request has gone (here: its time ran out).
  func testAPassphraseRequestIsNeverShownAndIsWaitedOut() throws {
    try requireAsker()
    let id = "patternlock-agent-test:\(getpid())-passphrase"
    let asker = try ask("Please enter passphrase for disk test:", id: id, timeout: 2)
    defer { asker.terminate() }
    try waitForRequest(id: id)
    let result = try PatternlockBinary.run(["password-agent", "--headless", "320x240"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "password-agent: no request for a PIN is pending\n", "no lock was shown")
    XCTAssertFalse(asker.isRunning, "it waited for the request to go")
  }

  // MARK: Helpers

  private func requireAsker() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-ask-password") else {
      throw XCTSkip("systemd-ask-password is not installed (the systemd package)")
    }
    guard getuid() == 0 else { throw XCTSkip("only root answers systemd's password requests") }
  }

  private func ask(_ message: String, id: String, timeout: Int) throws -> Process {
    let asker = Process()
    asker.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-ask-password")
    asker.arguments = ["--no-tty", "--timeout=\(timeout)", "--id=\(id)", message]
    asker.standardOutput = FileHandle.nullDevice
    asker.standardInput = FileHandle.nullDevice
    try asker.run()
    return asker
  }

  /// Waits up to 30 s for the asker's request file (one with `Id=id`).
  private func waitForRequest(id: String) throws {
    let directory = "/run/systemd/ask-password"
    for _ in 0..<600 {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      for name in names where name.hasPrefix("ask.") {
        if let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8), text.contains("Id=\(id)\n") { return }
      }
      usleep(50_000)
    }
    XCTFail("systemd-ask-password wrote no request with Id=\(id)")
  }
}
