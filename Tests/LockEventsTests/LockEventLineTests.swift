@testable import LockEvents
import XCTest

/// The lines of the event socket, read back.
final class LockEventLineTests: XCTestCase {
  func testStateLinesRoundTrip() {
    for line in [
      LockStateLine(unlocked: false, failures: 0, lockout: .none), LockStateLine(unlocked: true, failures: 3, lockout: .seconds(60)),
      LockStateLine(unlocked: false, failures: 20, lockout: .untilReset),
      LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(1)),
      LockStateLine(unlocked: true, failures: 0, lockout: .none, brightness: .percent(100)),
      LockStateLine(unlocked: true, failures: 0, lockout: .none, brightness: .none),
    ] {
      XCTAssertEqual(LockEventLine(Substring(line.jsonLine)), .state(line), line.jsonLine)
    }
  }

  func testTheBrightnessIsAPercentNoneOrUnsaid() {
    XCTAssertTrue(
      LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(40)).jsonLine.hasSuffix(",\"brightness\":40}"))
    XCTAssertTrue(
      LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .none).jsonLine.hasSuffix(",\"brightness\":\"none\"}"))
    // Before the lock has its display (and from a lock older than the field): unsaid.
    let older = "{\"event\":\"state\",\"state\":\"locked\",\"failures\":0,\"lockout\":\"none\",\"locked_for_s\":0}"
    XCTAssertEqual(LockStateLine(unlocked: false, failures: 0, lockout: .none).jsonLine, older)
    XCTAssertEqual(LockEventLine(Substring(older)), .state(LockStateLine(unlocked: false, failures: 0, lockout: .none)))
    for bad in ["0", "101", "\"bright\"", "-5"] {
      let line = "{\"event\":\"state\",\"state\":\"locked\",\"failures\":0,\"lockout\":\"none\",\"brightness\":\(bad)}"
      XCTAssertNil(LockEventLine(Substring(line)), line)
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
