@testable import LockEvents
import XCTest

/// The topics and the discovery messages, against Home Assistant's MQTT schemas.
final class HomeAssistantDeviceTests: XCTestCase {
  func testTheNodeIsTheNameInLowerCaseWithDashes() {
    XCTAssertEqual(HomeAssistantDevice.node(of: "Front door"), "front-door")
    XCTAssertEqual(HomeAssistantDevice.node(of: "  Locker #12 / B "), "locker-12-b")
    XCTAssertEqual(HomeAssistantDevice.node(of: "Tür"), "t-r")
    XCTAssertEqual(HomeAssistantDevice.node(of: "门"), "patternlock")
  }

  func testDiscoveryDescribesALockTwoSensorsAndAnEventEntity() throws {
    let device = HomeAssistantDevice(deviceName: "Front door", topicPrefix: "site/doors", discoveryPrefix: "ha", softwareVersion: "0.1.0")
    let messages = device.discoveryMessages
    XCTAssertEqual(
      messages.map { $0.topic },
      ["ha/lock/front-door/lock/config", "ha/sensor/front-door/failures/config", "ha/sensor/front-door/lockout/config", "ha/event/front-door/activity/config"])
    var uniqueIDs: Set<String> = []
    for message in messages {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any], message.topic)
      XCTAssertEqual(object["availability_topic"] as? String, "site/doors/front-door/availability")
      let device = try XCTUnwrap(object["device"] as? [String: Any])
      XCTAssertEqual(device["identifiers"] as? [String], ["patternlock_front-door"])
      XCTAssertEqual(device["name"] as? String, "Front door")
      uniqueIDs.insert(try XCTUnwrap(object["unique_id"] as? String))
    }
    XCTAssertEqual(uniqueIDs.count, 4)
    let lock = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(messages[0].payload.utf8)) as? [String: Any])
    // Home Assistant's MQTT lock: command_topic is required; these are its defaults.
    XCTAssertEqual(lock["command_topic"] as? String, "site/doors/front-door/command")
    XCTAssertEqual(lock["state_topic"] as? String, "site/doors/front-door/state")
    XCTAssertEqual(lock["payload_lock"] as? String, "LOCK")
    XCTAssertEqual(lock["payload_unlock"] as? String, "UNLOCK")
    XCTAssertEqual(lock["state_locked"] as? String, "LOCKED")
    XCTAssertEqual(lock["state_unlocked"] as? String, "UNLOCKED")
    XCTAssertEqual(lock["state_jammed"] as? String, "JAMMED")
    XCTAssertEqual(lock["optimistic"] as? Bool, false)
    let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(messages[3].payload.utf8)) as? [String: Any])
    XCTAssertEqual(events["state_topic"] as? String, "site/doors/front-door/event")
    XCTAssertEqual(events["event_types"] as? [String], HomeAssistantDevice.eventTypes)
  }
}
