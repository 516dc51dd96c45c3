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

  func testDiscoveryDescribesALockTwoSensorsAnEventEntityAndABrightness() throws {
    let device = HomeAssistantDevice(deviceName: "Front door", topicPrefix: "site/doors", discoveryPrefix: "ha", softwareVersion: "0.1.0")
    let messages = device.discoveryMessages
    XCTAssertEqual(
      messages.map { $0.topic },
      ["ha/lock/front-door/lock/config", "ha/sensor/front-door/failures/config", "ha/sensor/front-door/lockout/config", "ha/event/front-door/activity/config",
        "ha/number/front-door/brightness/config",
      ])
    var uniqueIDs: Set<String> = []
    for message in messages {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any], message.topic)
      XCTAssertEqual(object["availability_topic"] as? String, "site/doors/front-door/availability")
      let device = try XCTUnwrap(object["device"] as? [String: Any])
      XCTAssertEqual(device["identifiers"] as? [String], ["patternlock_front-door"])
      XCTAssertEqual(device["name"] as? String, "Front door")
      uniqueIDs.insert(try XCTUnwrap(object["unique_id"] as? String))
    }
    XCTAssertEqual(uniqueIDs.count, 5)
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

  /// Home Assistant's MQTT number: command_topic is required; the state topic carries
  /// the level the lock applied, or `None` (its payload_reset: unknown) without one.
  func testTheBrightnessIsASliderFromOneToAHundredPercent() throws {
    let device = HomeAssistantDevice(deviceName: "Front door", topicPrefix: "site/doors", discoveryPrefix: "ha", softwareVersion: "0.1.0")
    let message = try XCTUnwrap(device.discoveryMessages.first { $0.topic == "ha/number/front-door/brightness/config" })
    let number = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
    XCTAssertEqual(number["command_topic"] as? String, "site/doors/front-door/brightness/set")
    XCTAssertEqual(number["state_topic"] as? String, "site/doors/front-door/brightness")
    XCTAssertEqual(number["min"] as? Int, 1)
    XCTAssertEqual(number["max"] as? Int, 100)
    XCTAssertEqual(number["step"] as? Int, 1)
    XCTAssertEqual(number["unit_of_measurement"] as? String, "%")
    XCTAssertEqual(number["mode"] as? String, "slider")
    XCTAssertEqual(number["payload_reset"] as? String, "None")
    XCTAssertEqual(number["optimistic"] as? Bool, false)
    XCTAssertEqual(number["unique_id"] as? String, "patternlock_front-door_brightness")
    XCTAssertEqual(number["name"] as? String, "Screen brightness")
    XCTAssertEqual(device.brightnessTopic, "site/doors/front-door/brightness")
    XCTAssertEqual(device.brightnessCommandTopic, "site/doors/front-door/brightness/set")
  }
}
