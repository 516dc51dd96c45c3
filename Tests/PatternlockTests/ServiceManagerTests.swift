import CommandTestSupport
import Foundation
import Glibc
import XCTest

@testable import LockProgram

/// What the lock tells systemd, as systemd listens for it: a datagram on $NOTIFY_SOCKET.
final class ServiceManagerTests: XCTestCase {
  private func withListener(_ body: (NotifyListener) throws -> Void) throws {
    let listener = try NotifyListener(in: makeTemporaryDirectory(prefix: "notify"))
    setenv("NOTIFY_SOCKET", listener.path, 1)
    defer { unsetenv("NOTIFY_SOCKET") }
    try body(listener)
  }

  func testReadyAndWatchdogReachTheNotifySocket() throws {
    try withListener { listener in
      ServiceManager.notify("READY=1")
      XCTAssertEqual(listener.next(), "READY=1")
      ServiceManager.notify("WATCHDOG=1")
      XCTAssertEqual(listener.next(), "WATCHDOG=1")
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
