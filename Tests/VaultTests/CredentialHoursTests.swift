import LockEvents
import CommandTestSupport
import Foundation
import Vault
import XCTest

/// The hours a credential may unlock in: the days and window `--hours` takes, the
/// canonical form stored and listed, and windows past midnight.
final class CredentialHoursTests: XCTestCase {
  /// Local seconds of 2026-12-07 (a Monday) at `hour:minute`, plus `days`.
  func monday(_ hour: Int64, _ minute: Int64 = 0, days: Int64 = 0) -> Int64 {
    UTCTime.parse("2026-12-07T00:00")! + days * 86_400 + hour * 3600 + minute * 60
  }

  func testWeekdaysAndAWindow() throws {
    let hours = try XCTUnwrap(CredentialHours("Mon-Fri 08:00-18:00"))
    XCTAssertEqual(hours.text, "Mon-Fri 08:00-18:00")
    XCTAssertTrue(hours.allows(local: monday(8)))
    XCTAssertTrue(hours.allows(local: monday(17, 59)))
    XCTAssertFalse(hours.allows(local: monday(18)), "the window's end is outside it")
    XCTAssertFalse(hours.allows(local: monday(7, 59)))
    XCTAssertTrue(hours.allows(local: monday(12, days: 4)), "Friday")
    XCTAssertFalse(hours.allows(local: monday(12, days: 5)), "Saturday")
    XCTAssertFalse(hours.allows(local: monday(12, days: 6)), "Sunday")
  }

  func testAWindowPastMidnightBelongsToTheDayItStarts() throws {
    let hours = try XCTUnwrap(CredentialHours("Fri 22:00-02:00"))
    XCTAssertTrue(hours.allows(local: monday(23, days: 4)), "Friday night")
    XCTAssertTrue(hours.allows(local: monday(1, days: 5)), "early Saturday")
    XCTAssertFalse(hours.allows(local: monday(1, days: 4)), "early Friday belongs to Thursday's night")
    XCTAssertFalse(hours.allows(local: monday(23, days: 5)), "Saturday night")
  }

  func testDayListsAndRangesAcrossTheWeekEndAreCanonical() throws {
    XCTAssertEqual(CredentialHours("Sat,Sun 10:00-14:00")?.text, "Sat-Sun 10:00-14:00")
    XCTAssertEqual(CredentialHours("Fri-Mon 10:00-14:00")?.text, "Mon,Fri-Sun 10:00-14:00")
    XCTAssertEqual(CredentialHours("Mon,Wed,Fri 00:00-24:00")?.text, "Mon,Wed,Fri 00:00-24:00")
    XCTAssertEqual(CredentialHours("daily 22:00-06:00")?.text, "daily 22:00-06:00")
    let canonical = try XCTUnwrap(CredentialHours("Fri-Mon 10:00-14:00"))
    XCTAssertEqual(CredentialHours(canonical.text), canonical)
  }

  func testLocalTimeIsTheSystemZoneFilesNotTheCallersTZ() throws {
    let system = try TemporaryDirectory(prefix: "zone", permissions: 0o755)
    defer { system.remove() }
    try ZoneFile.install(3 * 3600, under: system.url)
    setenv("TZ", "XYZ-14", 1)
    LocalTime.useSystemZone(root: system.path)
    XCTAssertEqual(LocalTime.seconds(atWall: monday(0)), monday(3), "the zone file's +3 h, not TZ's +14 h")
    let empty = try TemporaryDirectory(prefix: "zone", permissions: 0o755)
    defer { empty.remove() }
    setenv("TZ", "XYZ+12", 1)
    LocalTime.useSystemZone(root: empty.path)
    XCTAssertEqual(LocalTime.seconds(atWall: monday(0)), monday(0), "no zone file: UTC, as glibc without /etc/localtime")
    XCTAssertEqual(getenv("TZ").map { String(cString: $0) }, "UTC0")
    LocalTime.useSystemZone(root: "/")
  }

  func testMalformedHoursAreRefused() {
    for text in ["", "Mon-Fri", "Mon-Fri 8:00-18:00", "Mon-Fri 08:00-25:00", "Mon-Fri 08:00-08:00", "mon 08:00-09:00",
      "Mon-Xyz 08:00-09:00", "Mon 24:00-01:00", "Mon 08:00-09:00 extra", "Mon,,Tue 08:00-09:00"]
    {
      XCTAssertNil(CredentialHours(text), text)
    }
  }

  func testNamesAreLowerCaseWordsAndNeverTheUnidentifiedMark() {
    for name in ["alice", "door-2", "a.b_c", "7"] { XCTAssertTrue(Credential.isValidName(name), name) }
    for name in ["", "-", "Alice", "-x", "a b", "a\"b", String(repeating: "a", count: 33)] {
      XCTAssertFalse(Credential.isValidName(name), name)
    }
  }
}
