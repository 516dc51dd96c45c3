import CommandKit
import PatternCore
import Scene
import Screen
import SystemCalls
import Vault

/// Judges `session-lock`'s patterns by asking `patternlock judge` over its socket
/// (patternlock-judge.socket): the lock runs as the desktop user and never reads the
/// vault. One connection per pattern: the dots as one line (`1-2-3-6-9`), one JSON
/// answer back (`JudgeAnswer`). Only an answer that says `unlocked` unlocks: a judge
/// that cannot be reached, is slow, or answers anything unreadable leaves it locked.
///
/// The lock does not wait for the answer: the pattern is sent, the screen shows it as
/// "Checking…", and the connection is a source of the loop (`answerDescriptor`), so
/// the countdown, the outputs and the frames go on while Argon2id and the TPM work.
/// The answer is read when the judge ends the connection (`takeAnswer`), or given up
/// on after `answerTimeLimitMicroseconds`.
package struct SocketJudge: PatternJudge, ~Copyable {
  package let path: String
  /// The fewest dots sent at all; fewer are "too short" here without asking.
  package let minimumDots: Int
  /// The connection a pattern's answer comes on, behind a number the loop polls.
  private var connection: DescriptorSlot
  private var answer: [UInt8] = []

  /// How long the judge may take: Argon2id and a TPM's answer, with room to spare.
  package static let answerTimeLimitMicroseconds: UInt64 = 30_000_000

  package init(path: String, minimumDots: Int) throws(Errno) {
    self.path = path
    self.minimumDots = minimumDots
    connection = try DescriptorSlot()
  }

  package var answerDescriptor: Int32 { connection.rawValue }

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let dots = outcome.dots
    guard dots.count >= minimumDots else {
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)))
    }
    do throws(Errno) {
      try ask(dots)
    } catch {
      connection.empty()
      Console.error(
        "cannot ask the judge at \(path) (\(error.text)): is patternlock-judge.socket enabled, and is this user in its group (patternlock)? The session stays locked")
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
    return .pending(answerBy: now + SocketJudge.answerTimeLimitMicroseconds)
  }

  package mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
    var buffer = [UInt8](repeating: 0, count: 512)
    while connection.isFilled {
      var failure: Errno?
      let received: Int? = buffer.withUnsafeMutableBytes { raw in
        do throws(Errno) {
          return try connection.receiveWithoutWaiting(into: raw)
        } catch {
          failure = error
          return nil
        }
      }
      if let failure { return giveUp("the connection to the judge at \(path) failed (\(failure.text))") }
      guard let count = received else { break }
      // The judge answers one line and ends the connection.
      if count == 0 { return read() }
      answer += buffer[..<count]
      if answer.count > JudgeAnswer.maximumBytes { return giveUp("the judge at \(path) answered more than one line") }
    }
    guard now >= due else { return nil }
    return giveUp("the judge at \(path) did not answer within \(SocketJudge.answerTimeLimitMicroseconds / 1_000_000) s")
  }

  /// The answer that has come whole.
  private mutating func read() -> LockScreenController.Judgement {
    let bytes = answer
    connection.empty()
    answer.removeAll()
    guard let reply = JudgeAnswer.parse(bytes) else {
      Console.error("the judge at \(path) gave no answer that could be read; the session stays locked")
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
    Console.out(String(decoding: bytes.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self))
    return reply.judgement(minimumDots: minimumDots)
  }

  private mutating func giveUp(_ why: String) -> LockScreenController.Judgement {
    connection.empty()
    answer.removeAll()
    Console.error(why + "; the session stays locked")
    return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
  }

  /// Sends the pattern on a new connection and leaves it in `connection` for the answer.
  private mutating func ask(_ dots: DotSequence) throws(Errno) {
    let socket = try FileDescriptor.connectingUnixStream(to: path)
    var line = SecretBytes(capacity: PatternText.maximumBytes + 1)
    for i in 0..<dots.count {
      if i > 0 { _ = line.append(UInt8(ascii: "-")) }
      let dot = dots[i]
      if dot >= 10 { _ = line.append(UInt8(ascii: "0") + UInt8(dot / 10)) }
      _ = line.append(UInt8(ascii: "0") + UInt8(dot % 10))
    }
    _ = line.append(UInt8(ascii: "\n"))
    // A line of a few bytes fits an empty connection's buffer whole.
    try line.withBytes { bytes throws(Errno) in try socket.writeAll(bytes) }
    answer.removeAll()
    try connection.place(socket)
  }
}
