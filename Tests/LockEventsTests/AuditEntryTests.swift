import PatternCore
@testable import LockEvents
import XCTest

/// The audit log's line form: judged events carry their credential and count, the
/// door's own events neither, and each reads back as written.
final class AuditEntryTests: XCTestCase {
  func testAJudgedEntryRoundTrips() {
    let entry = AuditEntry(event: .wrong, failures: 3, wallSeconds: 1_796_245_000)
    XCTAssertEqual(entry.jsonLine, "{\"time\":\"2026-12-02T20:56:40Z\",\"wall\":1796245000,\"event\":\"wrong\",\"credential\":\"owner\",\"failures\":3}")
    XCTAssertEqual(AuditEntry(jsonLine: Substring(entry.jsonLine)), entry)
    XCTAssertEqual(entry.humanLine, "2026-12-02T20:56:40Z wrong credential=owner failures=3")
  }

  func testADoorEntryHasNoCredentialNorCount() {
    let entry = AuditEntry(event: .doorHeldOpen, credential: nil, failures: nil, reason: "30", wallSeconds: 1_796_245_000)
    XCTAssertEqual(entry.jsonLine, "{\"time\":\"2026-12-02T20:56:40Z\",\"wall\":1796245000,\"event\":\"door-held-open\",\"reason\":\"30\"}")
    XCTAssertEqual(AuditEntry(jsonLine: Substring(entry.jsonLine)), entry)
    XCTAssertEqual(entry.humanLine, "2026-12-02T20:56:40Z door-held-open reason=30")
  }

  func testAJudgedEventWithoutItsCountIsNotAnEntry() {
    XCTAssertNil(AuditEntry(jsonLine: "{\"wall\":1,\"event\":\"unlocked\",\"credential\":\"owner\"}"), "a torn or edited line")
    XCTAssertNil(AuditEntry(jsonLine: "{\"wall\":1,\"event\":\"wrong\",\"failures\":1}"))
    XCTAssertNotNil(AuditEntry(jsonLine: "{\"wall\":1,\"event\":\"exit-button\"}"))
  }

  func testEveryEventHasItsOwnMessageID() {
    let ids = AuditEntry.Event.allCases.map(\.messageID)
    XCTAssertEqual(Set(ids).count, ids.count)
    XCTAssertTrue(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
  }
}
