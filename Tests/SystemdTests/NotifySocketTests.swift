import CommandTestSupport
import Foundation
import Glibc
import Systemd
import XCTest

/// sd_notify's protocol: one datagram per state line on $NOTIFY_SOCKET, a path or (with
/// a leading `@`) a name in the abstract namespace.
final class NotifySocketTests: XCTestCase {
  /// A datagram socket bound to `address` (a path, or `@name`), $NOTIFY_SOCKET naming
  /// it for the duration of `body`.
  private func withListener(at address: String, _ body: (Int32) throws -> Void) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer {
      close(fd)
      if !address.hasPrefix("@") { unlink(address) }
    }
    var socketAddress = sockaddr_un()
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(address.utf8)
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
      for (i, byte) in bytes.enumerated() { raw[i] = byte }
      if address.hasPrefix("@") { raw[0] = 0 }
    }
    // The abstract namespace's name is exactly as long as the address says.
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setenv("NOTIFY_SOCKET", address, 1)
    defer { unsetenv("NOTIFY_SOCKET") }
    try body(fd)
  }

  private func receive(_ fd: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let n = recv(fd, &buffer, buffer.count, 0)
    return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : "<nothing>"
  }

  func testEachLineIsOneDatagramOnThePath() throws {
    let path = try makeTemporaryDirectory(prefix: "notify").appendingPathComponent("socket").path
    try withListener(at: path) { fd in
      XCTAssertEqual(try NotifySocket.send("READY=1"), true)
      XCTAssertEqual(receive(fd), "READY=1")
      XCTAssertEqual(try NotifySocket.send("WATCHDOG=1"), true)
      XCTAssertEqual(receive(fd), "WATCHDOG=1")
    }
  }

  func testALeadingAtNamesTheAbstractNamespace() throws {
    try withListener(at: "@patternlock-notify-test-\(getpid())") { fd in
      XCTAssertEqual(try NotifySocket.send("READY=1"), true)
      XCTAssertEqual(receive(fd), "READY=1")
    }
  }

  func testWithoutSystemdNothingIsSent() throws {
    unsetenv("NOTIFY_SOCKET")
    XCTAssertEqual(try NotifySocket.send("READY=1"), false)
    setenv("NOTIFY_SOCKET", "", 1)
    defer { unsetenv("NOTIFY_SOCKET") }
    XCTAssertEqual(try NotifySocket.send("READY=1"), false, "an empty NOTIFY_SOCKET is none")
  }

  func testASocketNobodyListensOnIsAnError() throws {
    let path = try makeTemporaryDirectory(prefix: "notify").appendingPathComponent("nobody").path
    setenv("NOTIFY_SOCKET", path, 1)
    defer { unsetenv("NOTIFY_SOCKET") }
    XCTAssertThrowsError(try NotifySocket.send("READY=1"))
  }
}
