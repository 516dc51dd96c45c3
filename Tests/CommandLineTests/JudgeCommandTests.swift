import CommandTestSupport
import Foundation
@testable import Vault
import XCTest

/// `patternlock judge` as systemd runs it for each connection of patternlock-judge.socket:
/// the built binary with one end of a connected AF_UNIX socket as standard input and
/// output, the test as the client on the other end.
final class JudgeCommandTests: XCTestCase {
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  let right = "6-3-8-1"

  override func setUpWithError() throws {
    sandbox = try makeTemporaryDirectory(prefix: "judge-tests", permissions: 0o755)
    let set = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", statePath, "--argon-passes", "1", "--argon-memory-mib", "1"], stdin: right)
    XCTAssertEqual(set.status, 0, set.stderr)
  }

  struct Exchange: Sendable {
    var status: Int32
    var answer: String
    var log: String
    var seconds: Double
  }

  /// A started judge and the client's end of its connection (handed to one thread
  /// at a time).
  struct Connection: @unchecked Sendable {
    let process: Process
    let client: Int32
    let errors: Pipe
  }

  /// A judge on a new connection. `user`: the uid the kernel records for the client
  /// (SO_PEERCRED gives the effective uid of whoever made the socket pair; root only).
  /// `defaultBrokenPipes`: the judge starts with SIGPIPE at its default action, as under
  /// systemd-socket-activate. `environment`: added to the test process's own.
  func connect(
    asUser user: uid_t? = nil, defaultBrokenPipes: Bool = false, environment: [String: String] = [:],
    errors: Pipe = Pipe()
  ) throws -> Connection {
    var ends: [Int32] = [0, 0]
    if let user { XCTAssertEqual(seteuid(user), 0, "seteuid needs root") }
    let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
    if user != nil { XCTAssertEqual(seteuid(0), 0) }
    XCTAssertEqual(made, 0)
    let process = Process()
    let arguments = ["judge", "--state-dir", statePath]
    if defaultBrokenPipes {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["--default-signal=PIPE", try PatternlockBinary.url().path] + arguments
    } else {
      process.executableURL = try PatternlockBinary.url()
      process.arguments = arguments
    }
    process.environment = ConfigRoot.isolatedEnvironment(environment)
    let server = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    process.standardInput = server
    process.standardOutput = server
    process.standardError = errors
    try process.run()
    try server.close()
    return Connection(process: process, client: ends[0], errors: errors)
  }

  /// Sends `request` (nothing when nil), reads the answer line, waits for the judge.
  static func finish(_ connection: Connection, sending request: String?) -> Exchange {
    let started = Date()
    if let request { _ = request.withCString { write(connection.client, $0, strlen($0)) } }
    var answer = Data()
    var byte: UInt8 = 0
    while read(connection.client, &byte, 1) == 1 {
      if byte == UInt8(ascii: "\n") { break }
      answer.append(byte)
    }
    close(connection.client)
    connection.process.waitUntilExit()
    let log = String(decoding: connection.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return Exchange(
      status: connection.process.terminationStatus, answer: String(decoding: answer, as: UTF8.self), log: log,
      seconds: Date().timeIntervalSince(started))
  }

  func judge(_ request: String?) throws -> Exchange { Self.finish(try connect(), sending: request) }

  func failures() -> Int {
    guard let directory = try? StateDirectory(opening: statePath, creating: false),
      case .intact(let record) = AttemptsFile.load(from: directory)
    else { return -1 }
    return record.failures
  }

  func testAWrongThenTheRightPatternAnswersOneLineEachAndLogsWhoAsked() throws {
    let wrong = try judge("1-2-3-6\n")
    XCTAssertEqual(wrong.status, 3, wrong.log)
    XCTAssertEqual(wrong.answer, "{\"result\":\"wrong\",\"failures\":1,\"tries_left\":4}")
    XCTAssertTrue(
      wrong.log.contains("judge: uid \(getuid()) gid \(getgid()) pid \(getpid()): wrong"),
      "the peer's credentials as the kernel recorded them: \(wrong.log)")
    let ok = try judge(right + "\n")
    XCTAssertEqual(ok.status, 0, ok.log)
    XCTAssertEqual(ok.answer, "{\"result\":\"unlocked\"}")
    XCTAssertEqual(failures(), 0)
  }

  func testALineWithoutItsNewlineIsJudgedAtEndOfFile() throws {
    let connection = try connect()
    _ = right.withCString { write(connection.client, $0, strlen($0)) }
    shutdown(connection.client, Int32(SHUT_WR))
    let ok = Self.finish(connection, sending: nil)
    XCTAssertEqual(ok.answer, "{\"result\":\"unlocked\"}", ok.log)
  }

  func testASilentClientIsAnsweredWithinTheTimeLimitAndNothingIsCounted() throws {
    let silent = try judge(nil)
    XCTAssertEqual(silent.status, 2, silent.log)
    XCTAssertEqual(
      silent.answer,
      "{\"result\":\"bad-request\",\"reason\":\"no pattern line within 5 s of connecting: nothing was judged\"}")
    XCTAssertLessThan(silent.seconds, 15, "the judge gave up on its own")
    XCTAssertEqual(failures(), 0)
  }

  func testASlowClientHasOneTimeLimitForTheWholeLine() throws {
    let connection = try connect()
    // A byte every 2 s would reset a limit per read for ever; the line's limit is one.
    // The writer has a descriptor of its own: once `finish` has closed the client's, its
    // number may be the next test's connection, which a late byte must never reach. It
    // ends at the first byte after the judge has gone, and the test waits for that.
    let own = dup(connection.client)
    let written = DispatchSemaphore(value: 0)
    let writer = Thread {
      defer {
        close(own)
        written.signal()
      }
      for byte in "1-2-3-6-".utf8 {
        var value = byte
        if send(own, &value, 1, Int32(MSG_NOSIGNAL)) != 1 { return }
        Thread.sleep(forTimeInterval: 2)
      }
    }
    writer.start()
    let slow = Self.finish(connection, sending: nil)
    XCTAssertEqual(slow.status, 2, slow.log)
    XCTAssertTrue(slow.answer.contains("\"result\":\"bad-request\""), slow.answer)
    XCTAssertLessThan(slow.seconds, 12)
    XCTAssertEqual(failures(), 0)
    written.wait()
  }

  func testMalformedAndOverlongLinesAreRefusedUncounted() throws {
    for request in ["7-4-x\n", "7-4-" + String(repeating: "8", count: 300) + "\n", "\n"] {
      let refused = try judge(request)
      XCTAssertEqual(refused.status, 2, refused.log)
      XCTAssertTrue(refused.answer.hasPrefix("{\"result\":\"bad-request\",\"reason\":"), refused.answer)
      XCTAssertFalse(refused.answer.contains("7-4"), "the answer never repeats the dots: \(refused.answer)")
    }
    XCTAssertEqual(failures(), 0)
  }

  func testManyClientsAtOnceMeetOneCounterNotExtraGuesses() throws {
    try XCTSkipUnless(getuid() == 0, "ten users at once need root (one user has one judgement at a time)")
    // Android's table: the fifth failure starts a lockout. Ten different wrong
    // patterns at once (a repeat would not be counted again), from ten users.
    let wrongs = ["1-2-3-6", "1-2-3-5", "1-4-7-8", "3-2-1-4", "7-8-9-6", "9-8-7-4", "1-5-9-6", "3-5-7-8", "2-5-8-9", "4-5-6-9"]
    let connections = try wrongs.indices.map { try connect(asUser: uid_t(60001 + $0)) }
    let exchanges = Exchanges(count: wrongs.count)
    DispatchQueue.concurrentPerform(iterations: wrongs.count) { i in
      exchanges.set(i, Self.finish(connections[i], sending: wrongs[i] + "\n"))
    }
    let results = exchanges.answers
    let judgedWrong = results.filter { $0.hasPrefix("{\"result\":\"wrong\"") }.count
    let lockedOut = results.filter { $0.hasPrefix("{\"result\":\"locked-out\"") }.count
    // One at a time under the state lock (a judge waits up to 20 s for it): five
    // verdicts, then the lockout for everyone after.
    XCTAssertEqual(judgedWrong, 5, "\(results)")
    XCTAssertEqual(lockedOut, wrongs.count - 5, "\(results)")
    XCTAssertEqual(failures(), judgedWrong, "every wrong verdict counted once")
    let late = try judge(right + "\n")
    XCTAssertTrue(late.answer.hasPrefix("{\"result\":\"locked-out\""), "the lockout holds for the right pattern too: \(late.answer)")
  }

  /// Whether some judge holds the claim of `user` (its byte of the `judging` file).
  func claimHeld(forUser user: uid_t) -> Bool {
    let fd = open(statePath + "/judging", O_RDONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var probe = flock()
    probe.l_type = Int16(F_WRLCK)
    probe.l_whence = Int16(SEEK_SET)
    probe.l_start = off_t(user)
    probe.l_len = 1
    let ofdGetLock: Int32 = 36  // F_OFD_GETLK, which Glibc's Swift module does not export
    guard fcntl(fd, ofdGetLock, &probe) == 0 else { return false }
    return probe.l_type != Int16(F_UNLCK)
  }

  func testAUsersSecondJudgementWhileOneWaitsIsRefusedAtOnceAndUncounted() throws {
    let me = getuid()
    let waiting = try connect()
    let deadline = Date().addingTimeInterval(10)
    while !claimHeld(forUser: me) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    XCTAssertTrue(claimHeld(forUser: me), "the first judge claimed its user's judgement")

    let second = try judge(right + "\n")
    XCTAssertEqual(second.status, 8, second.log)
    XCTAssertEqual(
      second.answer, "{\"result\":\"not-judged\",\"reason\":\"another judgement for this user is waiting or running: one at a time per user, nothing was judged\"}")
    XCTAssertLessThan(second.seconds, 3, "refused at once, not after the first one's wait")
    XCTAssertTrue(
      second.log.contains("judge: uid \(me) gid \(getgid()) pid \(getpid()): not-judged: a judgement for uid \(me) is already waiting or running"),
      second.log)
    XCTAssertEqual(second.log.split(separator: "\n").count, 1, "one journal line: \(second.log)")

    if me == 0 {
      // Another user is judged meanwhile.
      let other = Self.finish(try connect(asUser: 65534), sending: right + "\n")
      XCTAssertEqual(other.answer, "{\"result\":\"unlocked\"}", other.log)
      XCTAssertTrue(other.log.contains("judge: uid 65534 "), other.log)
    }

    let first = Self.finish(waiting, sending: "1-2-3-6\n")
    XCTAssertEqual(first.answer, "{\"result\":\"wrong\",\"failures\":1,\"tries_left\":4}", first.log)
    XCTAssertFalse(claimHeld(forUser: me), "the claim goes with its judge")
    let after = try judge(right + "\n")
    XCTAssertEqual(after.answer, "{\"result\":\"unlocked\"}", "once the first is over, the user is judged again: \(after.log)")
  }

  func testAJudgingFileOthersMayOpenFailsClosed() throws {
    // Whoever could open it could hold any user's byte and keep them from being judged.
    XCTAssertTrue(FileManager.default.createFile(atPath: statePath + "/judging", contents: nil))
    XCTAssertEqual(chmod(statePath + "/judging", 0o666), 0)
    let refused = try judge(right + "\n")
    XCTAssertEqual(refused.status, 8, refused.log)
    XCTAssertTrue(refused.answer.hasPrefix("{\"result\":\"not-judged\",\"reason\":"), refused.answer)
    XCTAssertTrue(refused.answer.contains("judging"), refused.answer)
    XCTAssertEqual(failures(), 0)
  }

  func testAClientThatHangsUpBeforeTheAnswerIsStillCountedLoggedAndHooked() throws {
    // Under systemd-socket-activate SIGPIPE is not ignored: the answer's write to a
    // closed connection must fail, not end the judge before its journal line and hook.
    let drop = sandbox.appendingPathComponent("drop")
    try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: drop.path)
    let hook = sandbox.appendingPathComponent("wrong.sh")
    try "#!/bin/sh\ntouch \(drop.path)/ran.$$\n".write(to: hook, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[actions]\non-wrong = \(hook.path)\n")

    let connection = try connect(defaultBrokenPipes: true, environment: ["PATTERNLOCK_CONFIG_ROOT": root.path])
    _ = "1-2-3-6\n".withCString { write(connection.client, $0, strlen($0)) }
    close(connection.client)
    connection.process.waitUntilExit()
    let log = String(decoding: connection.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(connection.process.terminationReason, .exit, "ended by signal \(connection.process.terminationStatus): \(log)")
    XCTAssertEqual(connection.process.terminationStatus, 3, log)
    XCTAssertTrue(log.contains("judge: uid \(getuid()) gid \(getgid()) pid \(getpid()): wrong"), log)
    XCTAssertEqual(failures(), 1)
    var ran: [String] = []
    for _ in 0..<100 {
      ran = ((try? FileManager.default.contentsOfDirectory(atPath: drop.path)) ?? []).filter { $0.hasPrefix("ran.") }
      if !ran.isEmpty { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    XCTAssertEqual(ran.count, 1, "on-wrong ran once")
  }

  func testTheJournalHearsOfAJudgementBeforeTheClient() throws {
    // The judge's standard error is a pipe the test has filled, so its journal line
    // blocks. Once the judge is blocked in that write, the client must have no answer
    // yet: whoever reads the journal after the last answer finds every judgement there.
    let errors = Pipe()
    let writeEnd = errors.fileHandleForWriting.fileDescriptor
    let flags = fcntl(writeEnd, F_GETFL)
    XCTAssertEqual(fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK), 0)
    let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
    while write(writeEnd, filler, filler.count) > 0 {}
    XCTAssertEqual(fcntl(writeEnd, F_SETFL, flags), 0)
    let connection = try connect(errors: errors)
    _ = "1-2-3-6\n".withCString { write(connection.client, $0, strlen($0)) }

    var blockedInJournal = false
    for _ in 0..<600 where !blockedInJournal {
      blockedInJournal = Self.isBlockedWritingStandardError(connection.process.processIdentifier)
      if !blockedInJournal { Thread.sleep(forTimeInterval: 0.1) }
    }
    XCTAssertTrue(blockedInJournal, "the judge never wrote to its standard error")
    var pending = pollfd(fd: connection.client, events: Int16(POLLIN), revents: 0)
    XCTAssertEqual(poll(&pending, 1, 0), 0, "the client had its answer before the journal line was written")

    let drained = errors.fileHandleForReading
    var log = Data()
    while !String(decoding: log, as: UTF8.self).hasSuffix(": wrong\n") {
      let more = drained.availableData
      if more.isEmpty { break }
      log.append(more)
    }
    let exchange = Self.finish(connection, sending: nil)
    XCTAssertEqual(exchange.answer, "{\"result\":\"wrong\",\"failures\":1,\"tries_left\":4}")
    XCTAssertTrue(String(decoding: log, as: UTF8.self).contains("judge: uid \(getuid()) gid \(getgid()) pid \(getpid()): wrong"))
  }

  /// Whether `process` is inside write(2) on its standard error, as the kernel says
  /// (`/proc/PID/syscall`: the system call's number, then its arguments).
  static func isBlockedWritingStandardError(_ process: Int32) -> Bool {
    guard let text = try? String(contentsOfFile: "/proc/\(process)/syscall", encoding: .utf8) else { return false }
    let fields = text.split(separator: " ")
    #if arch(x86_64)
      let writeCall = "1"
    #else
      let writeCall = "64"
    #endif
    return fields.count > 1 && fields[0] == writeCall && fields[1] == "0x2"
  }

  func testStandardInputThatIsNoSocketIsAUsageError() throws {
    let run = try PatternlockBinary.run(["judge", "--state-dir", statePath], stdin: right)
    XCTAssertEqual(run.status, 2)
    XCTAssertEqual(
      run.stderr,
      "patternlock: judge: standard input is not a socket: patternlock-judge.socket starts it for each connection (to judge a pattern typed in a shell, use 'patternlock check')\n"
    )
    XCTAssertEqual(failures(), 0)
  }
}

/// The clients' exchanges, filled from several threads at once.
final class Exchanges: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [JudgeCommandTests.Exchange?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ exchange: JudgeCommandTests.Exchange) {
    lock.lock()
    values[index] = exchange
    lock.unlock()
  }

  var answers: [String] {
    lock.lock()
    defer { lock.unlock() }
    return values.map { $0?.answer ?? "(no answer)" }
  }
}
