import CommandTestSupport
import Foundation
import Glibc
import XCTest

@testable import LockProgram

/// What the lock tells systemd, as systemd listens for it: a datagram on $NOTIFY_SOCKET.
final class ServiceManagerTests: XCTestCase {
  private func withListener(_ body: (String, Int32) throws -> Void) throws {
    let path = try makeTemporaryDirectory(prefix: "notify").appendingPathComponent("socket").path
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer {
      close(fd)
      unlink(path)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    XCTAssertEqual(bound, 0)
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setenv("NOTIFY_SOCKET", path, 1)
    defer { unsetenv("NOTIFY_SOCKET") }
    try body(path, fd)
  }

  private func receive(_ fd: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let n = recv(fd, &buffer, buffer.count, 0)
    return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : "<nothing>"
  }

  func testReadyAndWatchdogReachTheNotifySocket() throws {
    try withListener { _, fd in
      ServiceManager.notify("READY=1")
      XCTAssertEqual(receive(fd), "READY=1")
      ServiceManager.notify("WATCHDOG=1")
      XCTAssertEqual(receive(fd), "WATCHDOG=1")
    }
  }

  func testWatchdogIntervalIsHalfTheTimeoutForThisProcessOnly() {
    setenv("WATCHDOG_USEC", "30000000", 1)
    defer {
      unsetenv("WATCHDOG_USEC")
      unsetenv("WATCHDOG_PID")
    }
    XCTAssertEqual(ServiceManager.watchdogPingInterval(), 15_000_000)
    setenv("WATCHDOG_PID", "\(getpid())", 1)
    XCTAssertEqual(ServiceManager.watchdogPingInterval(), 15_000_000)
    setenv("WATCHDOG_PID", "1", 1)
    XCTAssertNil(ServiceManager.watchdogPingInterval(), "a watchdog meant for another process")
    unsetenv("WATCHDOG_PID")
    setenv("WATCHDOG_USEC", "soon", 1)
    XCTAssertNil(ServiceManager.watchdogPingInterval())
  }
}
