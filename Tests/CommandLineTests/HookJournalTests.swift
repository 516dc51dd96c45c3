import CShim
import CommandTestSupport
import Configuration
import Foundation
import Glibc
import VaultTestSupport
import XCTest

/// Which failures start `on-wrong`, and whose name the journal files a hook's output
/// under: a test socket stands in for journald's (which files a stream under the
/// credentials of whoever connected it).
final class HookJournalTests: XCTestCase {
  var sandbox: URL!
  var drop: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }

  override func setUpWithError() throws {
    sandbox = try makeTemporaryDirectory(prefix: "hook-journal-tests", permissions: 0o755)
    drop = sandbox.appendingPathComponent("drop")
    try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: drop.path)
    try VaultTestSupport.enrol([1, 2, 3, 6, 9], in: statePath)
  }

  private func script(_ name: String, _ body: String) throws -> String {
    let url = sandbox.appendingPathComponent(name)
    try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url.path
  }

  /// `check` with `actions` (`key = value` lines) in a test root's /etc/patternlock.conf,
  /// where a hook run as root may come from.
  private func check(_ pattern: String, _ actions: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[actions]\n" + actions.map { $0 + "\n" }.joined())
    return try PatternlockBinary.run(
      ["check", "--state-dir", statePath], stdin: pattern,
      environment: environment.merging([ConfigurationFiles.rootVariable: root.path]) { a, _ in a })
  }

  private func runs() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: drop.path)) ?? []).filter { $0.hasPrefix("ran.") }.sorted()
  }

  func testOneWrongPatternSentAgainAndAgainStartsOnWrongOnce() throws {
    let hook = try script("wrong.sh", "touch \(drop.path)/ran.$$")
    let options = ["on-wrong = \(hook)"]
    for _ in 0..<6 { XCTAssertEqual(try check("7-4-1-2-3\n", options).status, 3) }
    XCTAssertEqual(try check("9-8-7-4\n", options).status, 3, "another wrong pattern is counted")
    for _ in 0..<100 where runs().count < 2 { Thread.sleep(forTimeInterval: 0.1) }
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertEqual(runs().count, 2, "two counted failures, two hooks: repeats are not counted and start nothing")
  }

  func testAHookStartsWithSIGPIPEAtItsDefaultThoughPatternlockIgnoresIt() throws {
    // SigIgn in /proc: the mask of ignored signals, SIGPIPE (13) its bit 12.
    let hook = try script("signals.sh", "grep '^SigIgn:' /proc/$$/status > \(drop.path)/ran.$$")
    XCTAssertEqual(try check("7-4-1-2-3\n", ["on-wrong = \(hook)"]).status, 3)
    for _ in 0..<100 where runs().isEmpty { Thread.sleep(forTimeInterval: 0.1) }
    Thread.sleep(forTimeInterval: 0.2)
    let line = try XCTUnwrap(runs().first.map { try String(contentsOfFile: drop.path + "/" + $0, encoding: .utf8) })
    let mask = try XCTUnwrap(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespacesAndNewlines), radix: 16), line)
    XCTAssertEqual(mask & (1 << 12), 0, "the hook inherited an ignored SIGPIPE: \(line)")
  }

  func testAHooksOutputReachesTheJournalAsTheHookUser() throws {
    try XCTSkipUnless(pl_getuid() == 0, "only root can run a hook as another user")
    let socketPath = sandbox.appendingPathComponent("journal.socket").path
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(listener, 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in socketPath.utf8.enumerated() { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
    XCTAssertEqual(chmod(socketPath, 0o666), 0)
    XCTAssertEqual(listen(listener, 8), 0)

    let hook = try script("say.sh", "echo hello from the hook")
    let result = try check(
      "7-4-1-2-3\n", ["on-wrong = \(hook)", "hook-user = nobody"],
      environment: ["PATTERNLOCK_TEST_JOURNAL_SOCKET": socketPath])
    XCTAssertEqual(result.status, 3, result.stderr)

    var streams: [(uid: UInt32, text: String)] = []
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && !streams.contains(where: { $0.text.contains("hello from the hook") }) {
      var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 200) == 1 else { continue }
      let stream = accept(listener, nil, nil)
      guard stream >= 0 else { continue }
      var credentials = PeerCredentials()
      var length = socklen_t(MemoryLayout<PeerCredentials>.size)
      XCTAssertEqual(getsockopt(stream, SOL_SOCKET, SO_PEERCRED, &credentials, &length), 0)
      var text = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 4096)
      var timeout = timeval(tv_sec: 5, tv_usec: 0)
      _ = setsockopt(stream, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      while true {
        let n = read(stream, &buffer, buffer.count)
        if n <= 0 { break }
        text += buffer[0..<n]
      }
      close(stream)
      streams.append((credentials.uid, String(decoding: text, as: UTF8.self)))
    }
    let said = streams.filter { $0.text.contains("hello from the hook") }
    XCTAssertEqual(said.count, 1, "\(streams)")
    XCTAssertEqual(said.first?.uid, 65534, "the hook's line is filed under nobody, not root: \(streams)")
    XCTAssertTrue(said.first?.text.hasPrefix("patternlock-hook\n") ?? false, "journald's stream header first: \(streams)")
  }
}

/// Linux's `struct ucred` (SO_PEERCRED), which Glibc exports only with _GNU_SOURCE.
private struct PeerCredentials {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0
}
