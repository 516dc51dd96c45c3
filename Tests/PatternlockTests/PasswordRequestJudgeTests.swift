import Foundation
import PatternCore
import Scene
import SystemCalls
import Systemd
@testable import LockProgram
import XCTest

/// password-agent's judge against the real `systemd-ask-password`: the pattern goes out
/// as the PIN, and the verdict is read from what the asker does next (asks again: wrong;
/// ends and nobody asks again: taken; asks for a passphrase: the keyboard's).
final class PasswordRequestJudgeTests: XCTestCase {
  let right = DotSequence([2, 5, 9, 4, 3])
  let wrong = DotSequence([1, 2, 3, 6])

  func testThePINIsTakenWhenTheAskerEnds() throws {
    let id = "patternlock-test:\(getpid())-taken"
    let asker = try Asker(script: "exec systemd-ask-password --no-tty --timeout=60 --id=\(id) 'Please enter LUKS2 token PIN:'")
    var judge = try PasswordRequestJudge(try asker.request(id: id), directory: PasswordRequestDirectory.path, gridSize: 3, minimumDots: 4)
    let asked = judge.judge(complete(right), at: MonotonicClock.microseconds())
    XCTAssertEqual(asked.verdict, .neutral(.checking))
    let due = try XCTUnwrap(asked.answerDue)
    let verdict = try answer(&judge, due: due)
    XCTAssertEqual(verdict.verdict, .accepted(.unlocked))
    XCTAssertTrue(verdict.unlocks)
    XCTAssertEqual(judge.ending, .answered)
    XCTAssertEqual(asker.finish(), "3x3:2-5-9-4-3\n", "the PIN is the pattern's fixed text, grid size first")
  }

  func testAWrongPatternIsAskedAgainAndTheNextRequestIsTheOneShown() throws {
    let id = "patternlock-test:\(getpid())-again"
    // As a script asks: one systemd-ask-password per try, with the same Id.
    let asker = try Asker(script: """
      for try in 1 2; do
        pin=$(systemd-ask-password --no-tty --timeout=60 --id=\(id) 'Please enter LUKS2 token PIN:')
        [ "$pin" = 3x3:2-5-9-4-3 ] && { echo opened; exit 0; }
      done
      exit 1
      """)
    let first = try asker.request(id: id)
    var judge = try PasswordRequestJudge(first, directory: PasswordRequestDirectory.path, gridSize: 3, minimumDots: 4)
    let short = judge.judge(GestureOutcome(dots: DotSequence([1, 2]), result: .tooShort, timeMicroseconds: 0), at: 0)
    XCTAssertEqual(short.verdict, .rejected(.tooShort(minimumDots: 4)), "too short: not sent, the TPM counts nothing")
    // The TPM's count, as the agent reads it after a wrong PIN.
    judge.triesLeft = { 7 }
    let wrongDue = try XCTUnwrap(judge.judge(complete(wrong), at: MonotonicClock.microseconds()).answerDue)
    let refused = try answer(&judge, due: wrongDue)
    XCTAssertEqual(refused.verdict, .rejected(.wrongPattern(triesLeft: 7)))
    XCTAssertFalse(refused.unlocks)
    XCTAssertNotEqual(judge.current.file, first.file, "the new request is the one answered next")
    XCTAssertNil(judge.ending)
    let rightDue = try XCTUnwrap(judge.judge(complete(right), at: MonotonicClock.microseconds()).answerDue)
    XCTAssertEqual(try answer(&judge, due: rightDue).verdict, .accepted(.unlocked))
    XCTAssertEqual(asker.finish(), "opened\n")
  }

  func testAPassphraseAskedInsteadIsLeftToTheKeyboard() throws {
    let id = "patternlock-test:\(getpid())-passphrase"
    let asker = try Asker(script: """
      systemd-ask-password --no-tty --timeout=60 --id=\(id) 'Please enter LUKS2 token PIN:' >/dev/null
      exec systemd-ask-password --no-tty --timeout=60 --id=\(id) 'Please enter passphrase for disk test:'
      """)
    var judge = try PasswordRequestJudge(try asker.request(id: id), directory: PasswordRequestDirectory.path, gridSize: 3, minimumDots: 4)
    let due = try XCTUnwrap(judge.judge(complete(wrong), at: MonotonicClock.microseconds()).answerDue)
    let verdict = try answer(&judge, due: due)
    XCTAssertEqual(verdict.verdict, .rejected(.wrongPattern))
    XCTAssertTrue(verdict.unlocks, "the lock ends: the passphrase is not the pattern's to answer")
    XCTAssertEqual(judge.ending, .passphraseAsked)
    let passphrase = try asker.request(id: id) { $0.request.message.contains("passphrase") }
    XCTAssertFalse(passphrase.request.asksForPIN)
    asker.stop()
  }

  /// Nobody drew anything and the request went (its time ran out): the loop's descriptor
  /// wakes, and the lock ends.
  func testARequestThatGoesUnansweredEndsTheLock() throws {
    let id = "patternlock-test:\(getpid())-expired"
    let asker = try Asker(script: "exec systemd-ask-password --no-tty --timeout=1 --id=\(id) 'Please enter LUKS2 token PIN:'")
    var judge = try PasswordRequestJudge(try asker.request(id: id), directory: PasswordRequestDirectory.path, gridSize: 3, minimumDots: 4)
    XCTAssertFalse(judge.isWithdrawn(at: MonotonicClock.microseconds()))
    var withdrawn = false
    for _ in 0..<50 where !withdrawn {
      _ = isReadable(judge.answerDescriptor, milliseconds: 200)
      withdrawn = judge.isWithdrawn(at: MonotonicClock.microseconds())
    }
    XCTAssertTrue(withdrawn)
    XCTAssertEqual(judge.ending, .withdrawn)
    _ = asker.finish()
  }

  /// Escape with nothing drawn: the asker is told no answer will come, and gets none.
  func testEscapeCancelsTheRequest() throws {
    let id = "patternlock-test:\(getpid())-cancel"
    let asker = try Asker(script: "exec systemd-ask-password --no-tty --timeout=60 --id=\(id) 'Please enter LUKS2 token PIN:'")
    var judge = try PasswordRequestJudge(try asker.request(id: id), directory: PasswordRequestDirectory.path, gridSize: 3, minimumDots: 4)
    XCTAssertTrue(judge.cancel(at: MonotonicClock.microseconds()))
    XCTAssertEqual(judge.ending, .cancelled)
    XCTAssertEqual(asker.finish(), "", "no secret")
    XCTAssertNotEqual(asker.process.terminationStatus, 0)
  }

  func testOnlyAPINIsAskedOfThePattern() throws {
    func request(_ message: String) throws -> PasswordRequest {
      try PasswordRequest.parse(Array("[Ask]\nSocket=/s\nMessage=\(message)\n".utf8), path: "ask.t")
    }
    XCTAssertTrue(try request("Please enter LUKS2 token PIN:").asksForPIN)
    XCTAssertTrue(try request("Please enter TPM2 PIN:").asksForPIN)
    XCTAssertTrue(try request("Please enter security token PIN:").asksForPIN)
    XCTAssertFalse(try request("Please enter passphrase for disk root:").asksForPIN)
    XCTAssertFalse(try request("Please enter recovery key for disk root:").asksForPIN)
    XCTAssertFalse(try request("Please enter PIN or passphrase for disk root:").asksForPIN)
    XCTAssertFalse(try request("Please enter SPINACH:").asksForPIN, "a word, not a substring")
  }

  // MARK: Helpers

  private func complete(_ dots: DotSequence) -> GestureOutcome {
    GestureOutcome(dots: dots, result: .complete, timeMicroseconds: 0)
  }

  /// The verdict, taken as the loop takes it: each time the judge's descriptor is ready,
  /// or at the time limit.
  private func answer(_ judge: inout PasswordRequestJudge, due: UInt64) throws -> LockScreenController.Judgement {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      _ = isReadable(judge.answerDescriptor, milliseconds: 500)
      if let verdict = judge.takeAnswer(at: MonotonicClock.microseconds(), due: due) { return verdict }
    }
    throw AskerFailure.noVerdict
  }

  private func isReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&ready, 1, milliseconds) == 1
  }
}

/// A shell script that asks through systemd-ask-password; what it prints is kept.
private final class Asker {
  let process = Process()
  let output = Pipe()

  init(script: String) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-ask-password") else {
      throw XCTSkip("systemd-ask-password is not installed (the systemd package)")
    }
    guard getuid() == 0 else { throw XCTSkip("the asker believes only root's answers") }
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  deinit { stop() }

  /// The pending request with `id` (and what `matching` wants), waited for up to 30 s.
  func request(id: String, matching: (PendingRequest) -> Bool = { _ in true }) throws -> PendingRequest {
    for _ in 0..<600 {
      let waiting = try PasswordRequestDirectory.pending(now: MonotonicClock.microseconds()).waiting
      if let found = waiting.first(where: { $0.request.id == id && matching($0) }) { return found }
      usleep(50_000)
    }
    throw AskerFailure.noRequest(id: id)
  }

  /// What the script printed, once it has ended.
  func finish() -> String {
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return printed
  }

  func stop() {
    if process.isRunning { process.terminate() }
  }
}

private enum AskerFailure: Error {
  case noRequest(id: String)
  case noVerdict
}
