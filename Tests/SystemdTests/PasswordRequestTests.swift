import Foundation
import SystemCalls
import XCTest

@testable import Systemd

/// systemd's password agent protocol, against the real `systemd-ask-password`: it writes
/// the request, this answers it, and what it prints is what was answered.
final class PasswordRequestTests: XCTestCase {
  /// A request as systemd 252 and 257 write it.
  func testARequestAsSystemdWritesIt() throws {
    let text = """
      [Ask]
      PID=4242
      Socket=/run/systemd/ask-password/sck.1f2e
      AcceptCached=1
      Echo=0
      NotAfter=123456789
      Silent=0
      Message=Please enter passphrase for disk \\"root\\":\\n\\xc3\\xa9t\\303\\251
      Icon=drive-harddisk
      Id=cryptsetup:/dev/vda2

      """
    let request = try PasswordRequest.parse(Array(text.utf8), path: "ask.test")
    XCTAssertEqual(request.message, "Please enter passphrase for disk \"root\":\nété")
    XCTAssertEqual(request.socket, "/run/systemd/ask-password/sck.1f2e")
    XCTAssertEqual(request.id, "cryptsetup:/dev/vda2")
    XCTAssertEqual(request.pid, 4242)
    XCTAssertEqual(request.notAfterMicroseconds, 123_456_789)
    XCTAssertTrue(request.acceptsCached)
    XCTAssertFalse(request.echo)
    XCTAssertFalse(request.hasExpired(at: 123_456_789))
    XCTAssertTrue(request.hasExpired(at: 123_456_790))
  }

  /// A token's PIN request names no disk; the asker's command line does.
  func testTheVolumeIsReadFromSystemdCryptsetupsCommandLine() {
    func line(_ words: [String]) -> [UInt8] { Array(words.joined(separator: "\u{0}").utf8) + [0] }
    XCTAssertEqual(
      AskedVolume.parse(commandLine: line(["/usr/lib/systemd/systemd-cryptsetup", "attach", "root", "/dev/vda2", "none", "luks,tpm2-device=auto"])),
      AskedVolume(name: "root", source: "/dev/vda2"))
    XCTAssertEqual(AskedVolume(name: "root", source: "/dev/vda2").description, "root (/dev/vda2)")
    XCTAssertNil(AskedVolume.parse(commandLine: line(["/usr/lib/systemd/systemd-cryptsetup", "detach", "root"])))
    XCTAssertNil(AskedVolume.parse(commandLine: line(["/usr/bin/systemd-ask-password", "attach", "root", "/dev/vda2"])))
    XCTAssertNil(AskedVolume.parse(commandLine: line(["/usr/lib/systemd/systemd-cryptsetup", "attach", "root"])))
    XCTAssertNil(AskedVolume.of(pid: Int32.max), "no such process")
  }

  func testNotAfterZeroWaitsForever() throws {
    let request = try PasswordRequest.parse(Array("[Ask]\nSocket=/s\nNotAfter=0\n".utf8), path: "ask.x")
    XCTAssertNil(request.notAfterMicroseconds)
    XCTAssertFalse(request.hasExpired(at: .max))
  }

  func testBrokenRequestsAreRefusedWithTheirFile() {
    let cases: [(String, PasswordRequestError)] = [
      ("[Ask]\nMessage=hi\n", .noSocket(path: "ask.a")),
      ("[Ask]\nSocket=relative\n", .noSocket(path: "ask.a")),
      // A Socket= outside [Ask] is not the request's.
      ("[Other]\nSocket=/s\n", .noSocket(path: "ask.a")),
      ("[Ask]\nSocket=/s\nMessage=bad \\q escape\n", .badMessage(path: "ask.a")),
      ("[Ask]\nSocket=/s\nMessage=cut \\x4\n", .badMessage(path: "ask.a")),
      ("[Ask]\nSocket=/s\nPID=-3\n", .badNumber(path: "ask.a", key: "PID", value: "-3")),
      ("[Ask]\nSocket=/s\nNotAfter=soon\n", .badNumber(path: "ask.a", key: "NotAfter", value: "soon")),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try PasswordRequest.parse(Array(text.utf8), path: "ask.a"), text) { error in
        XCTAssertEqual(error as? PasswordRequestError, expected, text)
        XCTAssertTrue((error as? PasswordRequestError)?.message.contains("ask.a") ?? false)
      }
    }
    XCTAssertThrowsError(try PasswordRequest.parse([0xFF, 0xFE], path: "ask.b")) { error in
      XCTAssertEqual(error as? PasswordRequestError, .notText(path: "ask.b"))
    }
  }

  func testAFileNotOfRootsIsNeverAnswered() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ask-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("ask.squatter")
    try Data("[Ask]\nSocket=/tmp/steal\nMessage=Pattern\n".utf8).write(to: file)
    XCTAssertEqual(try PasswordRequestDirectory.askFiles(in: directory.path), [file.path])
    XCTAssertNoThrow(try PasswordRequestDirectory.request(in: file.path), "root's own file is read")
    // A link, even to root's own request, could be pointed anywhere: never followed.
    let link = directory.appendingPathComponent("ask.link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    XCTAssertThrowsError(try PasswordRequestDirectory.request(in: link.path)) { error in
      XCTAssertEqual(error as? PasswordRequestError, .notRoots(path: link.path))
    }
    try FileManager.default.removeItem(at: link)
    guard chown(file.path, 65534, 65534) == 0 else { throw XCTSkip("chown needs root") }
    XCTAssertThrowsError(try PasswordRequestDirectory.request(in: file.path)) { error in
      XCTAssertEqual(error as? PasswordRequestError, .notRoots(path: file.path))
    }
    XCTAssertEqual(try PasswordRequestDirectory.askFiles(in: directory.path + "/none"), [], "no directory: nothing asked yet")
  }

  /// Only what is still waited for is shown: an expired request and one whose asker
  /// is gone are passed over in silence, a file that is no request is reported.
  func testOnlyLiveRequestsArePending() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ask-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func ask(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
    let me = getpid()
    try ask("ask.b-live", "[Ask]\nPID=\(me)\nSocket=/s/b\nNotAfter=0\nMessage=b\n")
    try ask("ask.a-live", "[Ask]\nPID=\(me)\nSocket=/s/a\nNotAfter=2000\nMessage=a\n")
    try ask("ask.c-expired", "[Ask]\nPID=\(me)\nSocket=/s/c\nNotAfter=999\n")
    try ask("ask.d-gone", "[Ask]\nPID=77\nSocket=/s/d\n")
    try ask("ask.e-broken", "[Ask]\nMessage=no socket\n")
    try ask("sck.f-not-a-request", "")
    let (waiting, refused) = try PasswordRequestDirectory.pending(in: directory.path, now: 1000) { $0 == me }
    XCTAssertEqual(waiting.map(\.request.message), ["a", "b"])
    XCTAssertEqual(waiting.map(\.file), [directory.path + "/ask.a-live", directory.path + "/ask.b-live"])
    XCTAssertEqual(refused, [.noSocket(path: directory.path + "/ask.e-broken")])
    XCTAssertTrue(PasswordRequestDirectory.processExists(me))
    XCTAssertFalse(PasswordRequestDirectory.processExists(Int32.max))
  }

  /// The real asker: `systemd-ask-password --no-tty` waits for an agent's answer on its
  /// socket and prints it.
  func testSystemdAskPasswordGetsTheAnswer() throws {
    let (printed, status) = try askAndReply(id: "patternlock-test:\(getpid())-answer") { request in
      XCTAssertEqual(request.message, "Draw the pattern for disk test:")
      var secret = Array("3x3:2-5-9-4-3".utf8)
      try secret.withUnsafeBytes { bytes in try request.answer(with: bytes) }
      secret.removeAll()
    }
    XCTAssertEqual(status, 0)
    XCTAssertEqual(printed, "3x3:2-5-9-4-3\n")
  }

  func testACancelEndsTheAskerWithoutASecret() throws {
    let (printed, status) = try askAndReply(id: "patternlock-test:\(getpid())-cancel") { request in try request.cancel() }
    XCTAssertNotEqual(status, 0)
    XCTAssertEqual(printed, "")
  }

  /// Starts `systemd-ask-password` with `id`, finds its request among the ask files
  /// (by its PID and Id), hands it to `reply`, and returns what the asker printed.
  private func askAndReply(id: String, _ reply: (PasswordRequest) throws -> Void) throws -> (String, Int32) {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-ask-password") else {
      throw XCTSkip("systemd-ask-password is not installed (the systemd package)")
    }
    guard getuid() == 0 else { throw XCTSkip("the asker believes only root's answers") }
    let asker = Process()
    asker.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-ask-password")
    asker.arguments = ["--no-tty", "--timeout=60", "--id=\(id)", "Draw the pattern for disk test:"]
    let output = Pipe()
    asker.standardOutput = output
    asker.standardInput = FileHandle.nullDevice
    try asker.run()
    defer { if asker.isRunning { asker.terminate() } }
    var found: PasswordRequest?
    for _ in 0..<600 where found == nil {
      for file in try PasswordRequestDirectory.askFiles() {
        if let request = try? PasswordRequestDirectory.request(in: file), request.id == id, request.pid == asker.processIdentifier {
          found = request
        }
      }
      if found == nil { usleep(50_000) }
    }
    let request = try XCTUnwrap(found, "systemd-ask-password wrote no request with Id=\(id)")
    XCTAssertFalse(request.hasExpired(at: MonotonicClock.microseconds()))
    try reply(request)
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    asker.waitUntilExit()
    return (printed, asker.terminationStatus)
  }
}
