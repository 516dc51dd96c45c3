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
struct SocketJudge: PatternJudge, ~Copyable {
  let path: String
  /// The fewest dots sent at all; fewer are "too short" here without asking.
  let minimumDots: Int

  /// How long the judge may take: Argon2id and a TPM's answer, with room to spare.
  static let answerTimeLimitMicroseconds: Int64 = 30_000_000

  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let dots = outcome.dots
    guard dots.count >= minimumDots else {
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)))
    }
    let answer: [UInt8]
    do throws(Errno) {
      answer = try ask(dots)
    } catch {
      Console.error(
        "cannot ask the judge at \(path) (\(error.text)): is patternlock-judge.socket enabled, and is this user in its group (patternlock)? The session stays locked")
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
    guard let reply = JudgeAnswer.parse(answer) else {
      Console.error("the judge at \(path) gave no answer that could be read; the session stays locked")
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
    Console.out(String(decoding: answer.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self))
    return reply.judgement(minimumDots: minimumDots)
  }

  private func ask(_ dots: DotSequence) throws(Errno) -> [UInt8] {
    let socket = try FileDescriptor.connectingUnixStream(to: path)
    var line = SecretBytes(capacity: PatternText.maximumBytes + 1)
    for i in 0..<dots.count {
      if i > 0 { _ = line.append(UInt8(ascii: "-")) }
      let dot = dots[i]
      if dot >= 10 { _ = line.append(UInt8(ascii: "0") + UInt8(dot / 10)) }
      _ = line.append(UInt8(ascii: "0") + UInt8(dot % 10))
    }
    _ = line.append(UInt8(ascii: "\n"))
    try line.withBytes { bytes throws(Errno) in try socket.writeAll(bytes) }
    try socket.setReceiveTimeout(microseconds: SocketJudge.answerTimeLimitMicroseconds)
    // The judge answers one line and ends the connection.
    return try socket.readToEnd(limit: JudgeAnswer.maximumBytes).bytes
  }
}
