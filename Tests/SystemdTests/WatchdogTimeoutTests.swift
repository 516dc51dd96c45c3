import Foundation
import Glibc
import Systemd
import XCTest

/// WATCHDOG_USEC and WATCHDOG_PID read as sd_watchdog_enabled(3) reads them.
final class WatchdogTimeoutTests: XCTestCase {
  override func tearDown() {
    unsetenv("WATCHDOG_USEC")
    unsetenv("WATCHDOG_PID")
  }

  func testTheTimeoutIsForThisProcessOrAnyWhenNoProcessIsNamed() {
    XCTAssertNil(WatchdogTimeout.forThisProcess(), "no watchdog set")
    setenv("WATCHDOG_USEC", "30000000", 1)
    XCTAssertEqual(WatchdogTimeout.forThisProcess(), 30_000_000)
    setenv("WATCHDOG_PID", "\(getpid())", 1)
    XCTAssertEqual(WatchdogTimeout.forThisProcess(), 30_000_000)
    setenv("WATCHDOG_PID", "1", 1)
    XCTAssertNil(WatchdogTimeout.forThisProcess(), "a watchdog meant for another process")
    setenv("WATCHDOG_PID", "me", 1)
    XCTAssertNil(WatchdogTimeout.forThisProcess(), "a process named unreadably is another")
  }

  func testAnUnreadableOrZeroTimeoutIsNone() {
    for value in ["soon", "0", "", "-5"] {
      setenv("WATCHDOG_USEC", value, 1)
      XCTAssertNil(WatchdogTimeout.forThisProcess(), value)
    }
  }
}
