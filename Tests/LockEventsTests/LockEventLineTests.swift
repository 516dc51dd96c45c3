@testable import LockEvents
import XCTest

/// The lines of the event socket, read back.
final class LockEventLineTests: XCTestCase {
  func testStateLinesRoundTrip() {
    for line in [
      LockStateLine(unlocked: false, failures: 0, lockout: .none), LockStateLine(unlocked: true, failures: 3, lockout: .seconds(60)),
      LockStateLine(unlocked: false, failures: 20, lockout: .untilReset),
    ] {
      XCTAssertEqual(LockEventLine(Substring(line.jsonLine)), .state(line), line.jsonLine)
    }
  }

  func testAuditLinesAreReadAsTheLogReadsThem() {
    let line = "{\"time\":\"2026-12-02T20:55:26Z\",\"wall\":1796245000,\"event\":\"wrong\",\"credential\":\"-\",\"failures\":3}"
    guard case .audit(let entry) = LockEventLine(Substring(line)) else { return XCTFail("not an entry") }
    XCTAssertEqual(entry.event, .wrong)
    XCTAssertEqual(entry.failures, 3)
  }

  func testAnythingElseIsNoLine() {
    for line in [
      "", "lock", "{}", "{\"event\":\"state\",\"state\":\"open\",\"failures\":0,\"lockout\":\"none\"}",
      "{\"event\":\"state\",\"state\":\"locked\",\"failures\":-1,\"lockout\":\"none\"}",
      "{\"event\":\"state\",\"state\":\"locked\",\"failures\":0,\"lockout\":\"timed\"}",
      "{\"event\":\"wrong\",\"wall\":1}",
    ] {
      XCTAssertNil(LockEventLine(Substring(line)), line)
    }
  }
}
