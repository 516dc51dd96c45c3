import Foundation
import XCTest

@testable import LockProgram

/// The boot splash's hand-over (`BootSplash`): with a real plymouthd, started in a
/// network namespace of the test's own (its socket is abstract, so per namespace),
/// and with sockets of that protocol's name that the lock must not trust.
final class BootSplashTests: XCTestCase {
  /// A listening abstract socket of a name of the test's own, bound as `user`.
  private func listen(_ name: String, asUser user: uid_t = 0) throws -> Int32 {
    if user != 0 { XCTAssertEqual(seteuid(user), 0, "seteuid needs root") }
    defer { if user != 0 { XCTAssertEqual(seteuid(0), 0) } }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(name.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { path in
      for (i, byte) in bytes.enumerated() { path[i + 1] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    XCTAssertEqual(bound, 0, "bind: \(String(cString: strerror(errno)))")
    XCTAssertEqual(Glibc.listen(fd, 4), 0)
    return fd
  }

  private func uniqueName() -> String { "/patternlock-test/plymouthd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

  func testNobodyListeningIsNoSplash() {
    XCTAssertEqual(BootSplash.ping(socket: uniqueName()), .noSplash)
    XCTAssertEqual(BootSplash.deactivate(socket: uniqueName()), .noSplash)
  }

  func testASocketNotHeldByRootIsNotSpokenTo() throws {
    let name = uniqueName()
    let server = try listen(name, asUser: 65534)
    defer { close(server) }
    // Not even its ping is believed: a squatter must not make the lock wait for DRM master.
    guard case .failed = BootSplash.ping(socket: name) else { return XCTFail("a squatter's ping was believed") }
    guard case .failed(let why) = BootSplash.deactivate(socket: name) else { return XCTFail("a squatter's socket was trusted") }
    XCTAssertTrue(why.contains("uid 65534"), why)
    // The request was never sent: the connection holds nothing but its end.
    let connection = accept(server, nil, nil)
    XCTAssertGreaterThanOrEqual(connection, 0)
    defer { close(connection) }
    var byte: UInt8 = 0
    XCTAssertEqual(read(connection, &byte, 1), 0, "nothing was written to it")
  }

  func testARootSocketThatNeverAnswersIsLeftWithinTheBound() throws {
    let name = uniqueName()
    let server = try listen(name)
    defer { close(server) }
    guard case .failed(let why) = BootSplash.deactivate(socket: name) else { return XCTFail("an answer out of nowhere") }
    XCTAssertTrue(why.contains("did not answer"), why)
  }

  func testARefusalIsSaid() throws {
    let name = uniqueName()
    let server = try listen(name)
    defer { close(server) }
    let answering = Thread {
      let connection = accept(server, nil, nil)
      var request = [UInt8](repeating: 0, count: 2)
      _ = read(connection, &request, 2)
      var nak: UInt8 = 0x15
      _ = write(connection, &nak, 1)
      close(connection)
    }
    answering.start()
    XCTAssertEqual(BootSplash.deactivate(socket: name), .failed("plymouth refused (answer 21)"))
  }

  /// What happened in the namespace, asserted on the test's own thread (XCTest's
  /// assertions are not made from the namespace's thread).
  private final class Findings: @unchecked Sendable {
    var failure: String?
    var ping = BootSplash.Outcome.noSplash
    var first = BootSplash.Outcome.noSplash
    var quit = BootSplash.Outcome.noSplash
    var exitStatus: Int32 = -1
    var afterQuit = BootSplash.Outcome.done
  }

  /// Runs `body` on a thread of its own in a new network namespace (a thread's own:
  /// the rest of the test process keeps the machine's), where the processes it starts
  /// live too, each the first of a new PID namespace.
  private func inNetworkNamespace(_ findings: Findings, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      defer { done.signal() }
      // unshare(2) and its flags are behind _GNU_SOURCE, which Swift's Glibc lacks. A
      // PID namespace too: plymouthd signals PID 1 (systemd's "stop printing details"),
      // which in a namespace of its own is plymouthd itself, and ignored.
      typealias Unshare = @convention(c) (Int32) -> Int32
      let cloneNewNet: Int32 = 0x4000_0000, cloneNewPID: Int32 = 0x2000_0000
      guard let symbol = dlsym(nil, "unshare") else { return findings.failure = "no unshare in libc" }
      guard unsafeBitCast(symbol, to: Unshare.self)(cloneNewNet | cloneNewPID) == 0 else {
        return findings.failure = "unshare(CLONE_NEWNET | CLONE_NEWPID) needs root: \(String(cString: strerror(errno)))"
      }
      body()
    }
    thread.start()
    XCTAssertEqual(done.wait(timeout: .now() + 120), .success)
  }

  func testARealPlymouthdLetsGoThenQuitsKeepingItsSplash() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/plymouthd") else {
      throw XCTSkip("plymouthd is not installed (scripts/install-deps installs plymouth)")
    }
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("plymouthd-\(getpid()).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let findings = Findings()
    inNetworkNamespace(findings) {
      // posix_spawn, not Process: Foundation watches its children through a CFSocket,
      // which a new network namespace (no loopback) leaves without a wakeup pair.
      let arguments = [
        "/usr/sbin/plymouthd", "--no-daemon", "--mode=boot", "--tty=/dev/null", "--no-boot-log",
        "--ignore-serial-consoles", "--kernel-command-line=splash", "--debug", "--debug-file=\(log.path)",
      ]
      var argv = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { return findings.failure = "plymouthd did not start" }
      // Up once its socket takes connections.
      for _ in 0..<200 where findings.ping == .noSplash {
        usleep(50_000)
        findings.ping = BootSplash.ping()
      }
      findings.first = BootSplash.deactivate()
      findings.quit = BootSplash.quitRetainingSplash()
      if findings.quit != .done { kill(pid, SIGTERM) }
      var status: Int32 = 0
      if waitpid(pid, &status, 0) == pid { findings.exitStatus = status }
      findings.afterQuit = BootSplash.deactivate()
    }
    XCTAssertNil(findings.failure)
    XCTAssertEqual(findings.ping, .done, "plymouthd answers the ping")
    XCTAssertEqual(findings.first, .done, "plymouthd acknowledges the deactivation")
    XCTAssertEqual(findings.quit, .done, "and the quit")
    XCTAssertEqual(findings.exitStatus, 0, "plymouthd exits with status 0 after quitting")
    XCTAssertEqual(findings.afterQuit, .noSplash, "nothing listens once it has quit")
    let trace = try String(contentsOf: log, encoding: .utf8)
    XCTAssertTrue(trace.contains("got deactivate request"), trace.suffix(2000).description)
    XCTAssertTrue(trace.contains("got quit --retain-splash request"), trace.suffix(2000).description)
  }
}
