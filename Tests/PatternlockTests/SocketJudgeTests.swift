import CommandTestSupport
import Foundation
import PatternCore
import Scene
import SystemCalls
@testable import LockProgram
import XCTest

/// session-lock's judge over a real socket: the pattern goes out at once, the answer is
/// read when the judge ends the connection (the loop polls `answerDescriptor`), and a
/// judge that cannot be reached, says nothing in time or answers anything unreadable
/// leaves it locked. (What it reads from an answer is in JudgeAnswerTests; the whole
/// round trip through patternlock-judge.socket in JudgeCommandTests and the Wayland test.)
final class SocketJudgeTests: XCTestCase {
  let outcome = GestureOutcome(dots: DotSequence([1, 2, 3, 6]), result: .complete, timeMicroseconds: 0)

  func testAJudgeThatCannotBeReachedLeavesItLocked() throws {
    var judge = try SocketJudge(path: "/nonexistent/judge.sock", minimumDots: 4)
    let judgement = judge.judge(outcome, at: 0)
    XCTAssertFalse(judgement.unlocks)
    XCTAssertNil(judgement.answerDue, "nothing is awaited from a judge never reached")
    XCTAssertEqual(judgement.verdict, .rejected(.busyTryAgain))
  }

  /// Whether `descriptor` is readable now.
  func isReadable(_ descriptor: Int32) -> Bool {
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&ready, 1, 0) == 1
  }

  /// The next connection on `server`, waited for up to two seconds.
  func accept(_ server: borrowing FileDescriptor) throws -> FileDescriptor {
    for _ in 0..<200 {
      if let connection = try server.acceptConnection() { return connection }
      usleep(10_000)
    }
    throw XCTSkip("no connection came")
  }

  func testThePatternGoesOutAndTheAnswerComesThroughTheLoopsDescriptor() throws {
    let path = try makeTemporaryDirectory().appendingPathComponent("judge.sock").path
    let server = try FileDescriptor.listeningUnixStream(at: path, backlog: 4)
    var judge = try SocketJudge(path: path, minimumDots: 4)
    let asked = judge.judge(outcome, at: 1_000)
    XCTAssertEqual(asked.answerDue, 1_000 + SocketJudge.answerTimeLimitMicroseconds, "the lock goes on meanwhile")
    XCTAssertEqual(asked.verdict, .neutral(.checking))
    XCTAssertFalse(isReadable(judge.answerDescriptor), "no answer yet")
    XCTAssertNil(judge.takeAnswer(at: 2_000, due: asked.answerDue!))

    let connection = try accept(server)
    var line = [UInt8](repeating: 0, count: 64)
    let count = try line.withUnsafeMutableBytes { try XCTUnwrap(try connection.receiveWithoutWaiting(into: $0)) }
    XCTAssertEqual(String(decoding: line[..<count], as: UTF8.self), "1-2-3-6\n")
    // Half the answer, then the rest and the end of the connection.
    let answer = Array("{\"result\":\"wrong\",\"failures\":3,\"tries_left\":2}\n".utf8)
    try answer[..<10].withUnsafeBytes { try connection.writeAll($0) }
    XCTAssertTrue(isReadable(judge.answerDescriptor))
    XCTAssertNil(judge.takeAnswer(at: 3_000, due: asked.answerDue!), "a part of the answer is not one")
    try answer[10...].withUnsafeBytes { try connection.writeAll($0) }
    _ = consume connection
    let verdict = try XCTUnwrap(judge.takeAnswer(at: 4_000, due: asked.answerDue!))
    XCTAssertEqual(verdict.verdict, .rejected(.wrongPattern(triesLeft: 2)))
    XCTAssertFalse(verdict.unlocks)
    XCTAssertFalse(isReadable(judge.answerDescriptor), "the connection is gone from the loop's descriptor")
  }

  /// No answer within the time limit, then an answer that is no answer: each is
  /// refused, never an unlock, and the connection is dropped.
  func testSilenceOrAnUnreadableAnswerLeavesItLocked() throws {
    let path = try makeTemporaryDirectory().appendingPathComponent("judge.sock").path
    let server = try FileDescriptor.listeningUnixStream(at: path, backlog: 4)
    var judge = try SocketJudge(path: path, minimumDots: 4)

    let due = try XCTUnwrap(judge.judge(outcome, at: 0).answerDue)
    let silent = try accept(server)
    XCTAssertNil(judge.takeAnswer(at: due - 1, due: due))
    XCTAssertEqual(judge.takeAnswer(at: due, due: due)?.verdict, .rejected(.busyTryAgain))
    // The lock hung up: the judge's side sees the end.
    var buffer = [UInt8](repeating: 0, count: 64)
    var ended = false
    for _ in 0..<200 where !ended {
      let received = try buffer.withUnsafeMutableBytes { try silent.receiveWithoutWaiting(into: $0) }
      if received == 0 { ended = true } else { usleep(10_000) }
    }
    XCTAssertTrue(ended)

    let again = try XCTUnwrap(judge.judge(outcome, at: due).answerDue)
    let garbled = try accept(server)
    // Read first: a connection closed with the line unread would be reset instead.
    _ = try buffer.withUnsafeMutableBytes { try XCTUnwrap(try garbled.receiveWithoutWaiting(into: $0)) }
    try Array("{\"result\":\"unlocked\",\"by\":\"me\"}\n".utf8).withUnsafeBytes { try garbled.writeAll($0) }
    _ = consume garbled
    let verdict = try XCTUnwrap(judge.takeAnswer(at: due + 1, due: again))
    XCTAssertFalse(verdict.unlocks)
    XCTAssertEqual(verdict.verdict, .rejected(.busyTryAgain))
  }
}
