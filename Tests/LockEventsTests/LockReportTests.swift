@testable import LockEvents
import XCTest

/// What each line of the event socket makes `patternlock mqtt` publish.
final class LockReportTests: XCTestCase {
  // Made for each use: a stored property would live as long as XCTest keeps the case,
  // past the end, where AddressSanitizer counts it as leaked through product code.
  var device: HomeAssistantDevice {
    HomeAssistantDevice(deviceName: "Front door", topicPrefix: "patternlock", discoveryPrefix: "homeassistant", softwareVersion: "1")
  }
  let second: UInt64 = 1_000_000

  func entry(_ event: AuditEntry.Event, credential: String? = "owner", failures: Int? = 0, reason: String? = nil) -> LockEventLine {
    .audit(AuditEntry(event: event, credential: credential, failures: failures, reason: reason, wallSeconds: 1_796_245_000))
  }

  func payloads(_ messages: [OutgoingMessage], on topic: String) -> [String] {
    messages.filter { $0.topic == topic }.map { $0.payload }
  }

  func eventTypes(_ messages: [OutgoingMessage]) throws -> [String] {
    try payloads(messages, on: device.eventTopic).map { payload in
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
      return try XCTUnwrap(object["event_type"] as? String)
    }
  }

  func testTheRunningLocksStateLineSetsStateCountAndLockout() {
    var report = LockReport(device: device)
    let messages = report.take(.state(LockStateLine(unlocked: false, failures: 6, lockout: .seconds(300))), at: 0)
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["LOCKED"])
    XCTAssertEqual(payloads(messages, on: device.failuresTopic), ["6"])
    XCTAssertEqual(payloads(messages, on: device.lockoutTopic), ["{\"lockout\":\"timed\",\"locked_for_s\":300}"])
    XCTAssertTrue(messages.allSatisfy { $0.retain })
    // The same state again changes nothing, so nothing is sent.
    XCTAssertEqual(report.take(.state(LockStateLine(unlocked: false, failures: 6, lockout: .seconds(300))), at: 0).filter { $0.topic != device.lockoutTopic }, [])
  }

  func testWrongRightAndLockoutAreEventsAndRetainedState() throws {
    var report = LockReport(device: device)
    var messages = report.take(entry(.attempt, credential: "-", failures: 1), at: 0)
    XCTAssertEqual(payloads(messages, on: device.failuresTopic), ["1"])
    XCTAssertEqual(try eventTypes(messages), [])
    messages = report.take(entry(.wrong, credential: "-", failures: 1), at: 0)
    XCTAssertEqual(try eventTypes(messages), ["wrong"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["LOCKED"])
    let wrong = try XCTUnwrap(payloads(messages, on: device.eventTopic).first)
    XCTAssertFalse(wrong.contains("credential"), "a pattern that matched none names no credential")
    XCTAssertTrue(wrong.contains("\"failures\":1"))

    messages = report.take(entry(.lockout, credential: "-", failures: 5, reason: "60"), at: 10 * second)
    XCTAssertEqual(try eventTypes(messages), ["lockout"])
    XCTAssertEqual(payloads(messages, on: device.lockoutTopic), ["{\"lockout\":\"timed\",\"locked_for_s\":60}"])
    XCTAssertEqual(report.tick(at: 15 * second), [], "less than a step: nothing")
    XCTAssertEqual(payloads(report.tick(at: 20 * second), on: device.lockoutTopic), ["{\"lockout\":\"timed\",\"locked_for_s\":50}"])
    XCTAssertEqual(payloads(report.tick(at: 70 * second), on: device.lockoutTopic), ["{\"lockout\":\"none\",\"locked_for_s\":0}"])
    XCTAssertEqual(report.tick(at: 80 * second), [], "an ended lockout is said once")

    messages = report.take(entry(.unlocked, credential: "alice", failures: 5), at: 90 * second)
    XCTAssertEqual(try eventTypes(messages), ["unlock"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["UNLOCKED"])
    XCTAssertEqual(payloads(messages, on: device.failuresTopic), ["0"], "an unlock takes the count back")
    XCTAssertTrue(try XCTUnwrap(payloads(messages, on: device.eventTopic).first).contains("\"credential\":\"alice\""))
  }

  func testAPermanentLockoutHasNoSecondsButSaysUntilReset() {
    var report = LockReport(device: device)
    let messages = report.take(entry(.lockout, credential: "-", failures: 20, reason: "permanent"), at: 0)
    XCTAssertEqual(payloads(messages, on: device.lockoutTopic), ["{\"lockout\":\"until-reset\"}"])
    XCTAssertEqual(report.tick(at: 1_000 * second), [])
    XCTAssertEqual(payloads(report.take(entry(.attemptsReset, failures: 0), at: 0), on: device.lockoutTopic), ["{\"lockout\":\"none\",\"locked_for_s\":0}"])
  }

  func testDuressIsAnUnlockAndADuressEvent() throws {
    var report = LockReport(device: device)
    let messages = report.take(entry(.unlocked, credential: "panic", failures: 0, reason: "duress"), at: 0)
    XCTAssertEqual(try eventTypes(messages), ["unlock", "duress"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["UNLOCKED"])
    for payload in payloads(messages, on: device.eventTopic) { XCTAssertFalse(payload.contains("reason"), payload) }
  }

  func testAnAttemptThatCannotBeCountedJamsTheLockUntilOneIsCounted() throws {
    var report = LockReport(device: device)
    var messages = report.take(entry(.refused, credential: "-", failures: 2, reason: "not-recorded"), at: 0)
    XCTAssertEqual(try eventTypes(messages), ["not_judged"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["JAMMED"])
    messages = report.take(entry(.attempt, credential: "-", failures: 3), at: 0)
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["LOCKED"])
    messages = report.take(entry(.refused, credential: "-", failures: 3, reason: "locked-out"), at: 0)
    XCTAssertEqual(try eventTypes(messages), ["refused"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), [])
  }

  func testTheDoorsAndTheRemoteCommandsEvents() throws {
    var report = LockReport(device: device)
    let door: [(AuditEntry.Event, String)] = [
      (.exitButton, "exit_button"), (.doorForced, "door_forced"), (.doorHeldOpen, "door_held_open"), (.doorClosed, "door_closed"),
      (.remoteUnlockRefused, "remote_unlock_refused"), (.credentialAdded, "credential_added"), (.credentialRemoved, "credential_removed"),
      (.patternSet, "pattern_set"),
    ]
    for (event, type) in door {
      XCTAssertEqual(try eventTypes(report.take(entry(event, credential: nil, failures: nil), at: 0)), [type])
    }
    var messages = report.take(entry(.remoteUnlock, credential: nil, failures: nil), at: 0)
    XCTAssertEqual(try eventTypes(messages), ["remote_unlock"])
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["UNLOCKED"])
    messages = report.take(entry(.remoteLock, credential: nil, failures: nil), at: 0)
    XCTAssertEqual(payloads(messages, on: device.stateTopic), ["LOCKED"])
  }

  func testEveryEventTypeSentIsOneTheDiscoveryDeclares() throws {
    var report = LockReport(device: device)
    var sent: Set<String> = []
    for event in AuditEntry.Event.allCases {
      for reason in [nil, "duress", "not-recorded", "30", "permanent"] {
        sent.formUnion(try eventTypes(report.take(entry(event, reason: reason), at: 0)))
      }
    }
    XCTAssertEqual(sent.subtracting(HomeAssistantDevice.eventTypes), [])
  }

  /// The number entity's state: the level the lock applied, retained; `None` (Home
  /// Assistant's unknown) when it has no backlight; sent again only when it moves;
  /// nothing while the lock has not said.
  func testTheBrightnessTheLockReportsIsTheNumbersRetainedState() {
    var report = LockReport(device: device)
    var messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none)), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), [])
    XCTAssertEqual(payloads(report.snapshot(at: 0), on: device.brightnessTopic), [])
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(39))), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), ["39"])
    XCTAssertTrue(messages.filter { $0.topic == device.brightnessTopic }.allSatisfy { $0.retain })
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(39))), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), [])
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none)), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), [], "unsaid changes nothing")
    XCTAssertEqual(payloads(report.snapshot(at: 0), on: device.brightnessTopic), ["39"])
    // A brightness clamped to where it was: the answer is sent anyway, so the slider
    // Home Assistant moved goes back to the level; once.
    report.awaitBrightness()
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(39))), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), ["39"])
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .percent(39))), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), [])
    messages = report.take(.state(LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .none)), at: 0)
    XCTAssertEqual(payloads(messages, on: device.brightnessTopic), ["None"])
    // The audit entry of a brightness is no event of the event entity.
    XCTAssertEqual(try eventTypes(report.take(entry(.remoteBrightness, credential: nil, failures: nil, reason: "40"), at: 0)), [])
  }

  func testTheSnapshotRepeatsWhatIsRetained() {
    var report = LockReport(device: device)
    XCTAssertEqual(report.snapshot(at: 0), [], "nothing known, nothing said")
    _ = report.take(entry(.lockout, credential: "-", failures: 5, reason: "60"), at: 0)
    _ = report.take(entry(.wrong, credential: "-", failures: 5), at: 0)
    let snapshot = report.snapshot(at: 30 * second)
    XCTAssertEqual(payloads(snapshot, on: device.stateTopic), ["LOCKED"])
    XCTAssertEqual(payloads(snapshot, on: device.failuresTopic), ["5"])
    XCTAssertEqual(payloads(snapshot, on: device.lockoutTopic), ["{\"lockout\":\"timed\",\"locked_for_s\":30}"])
  }
}
