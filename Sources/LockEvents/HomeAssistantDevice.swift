import PatternCore

/// The lock as Home Assistant sees it over MQTT: the topics under
/// `topic-prefix/NODE/` and the discovery messages under `discovery-prefix/` that make
/// a `lock` entity (locked, unlocked, jammed while an attempt cannot be judged), a
/// sensor of the failure count, one of the lockout's remaining time, an `event`
/// entity for what happens at the lock, and a `number` for the screen's brightness
/// (unknown while the lock reports no backlight it can set). NODE is the device name in lower case with
/// every other character as `-` (`Front door` is `front-door`).
///
/// The lock entity's keys are those of Home Assistant's MQTT lock (`command_topic`,
/// required; `state_topic`, the payloads and states, `availability_topic`), with
/// payloads and states spelt as its defaults, so that the entity works even where a
/// key were dropped.
public struct HomeAssistantDevice {
  public let name: String
  public let node: String
  public let base: String
  public let discoveryPrefix: String
  public let softwareVersion: String

  public init(deviceName: String, topicPrefix: String, discoveryPrefix: String, softwareVersion: String) {
    name = deviceName
    node = HomeAssistantDevice.node(of: deviceName)
    base = topicPrefix + "/" + node
    self.discoveryPrefix = discoveryPrefix
    self.softwareVersion = softwareVersion
  }

  /// `name` as one topic level and identifier: ASCII letters and digits in lower case,
  /// `-` for anything else, `patternlock` when nothing is left.
  public static func node(of name: String) -> String {
    var node = ""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "a"..."z", "0"..."9": node.unicodeScalars.append(scalar)
      case "A"..."Z": node.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
      default: if !node.isEmpty && !node.hasSuffix("-") { node += "-" }
      }
    }
    while node.hasSuffix("-") { node.removeLast() }
    return node.isEmpty ? "patternlock" : node
  }

  public var availabilityTopic: String { base + "/availability" }
  public var stateTopic: String { base + "/state" }
  public var failuresTopic: String { base + "/failures" }
  public var lockoutTopic: String { base + "/lockout" }
  public var eventTopic: String { base + "/event" }
  public var commandTopic: String { base + "/command" }
  public var brightnessTopic: String { base + "/brightness" }
  public var brightnessCommandTopic: String { base + "/brightness/set" }

  /// What the brightness's state topic carries while there is no level to show: Home
  /// Assistant's MQTT number resets to unknown on it.
  public static let brightnessUnknown = "None"

  public static let online = "online"
  public static let offline = "offline"

  /// What the event entity may report (`event_type` of each event message).
  public static let eventTypes = [
    "unlock", "duress", "wrong", "lockout", "refused", "not_judged", "exit_button", "door_forced", "door_held_open",
    "door_closed", "remote_lock", "remote_unlock", "remote_unlock_refused", "pattern_set", "attempts_reset",
    "credential_added", "credential_removed",
  ]

  /// The retained discovery messages: topic and payload, the lock first.
  public var discoveryMessages: [(topic: String, payload: String)] {
    var lock = common(component: "lock", suffix: "lock")
    lock.add("command_topic", string: commandTopic)
    lock.add("state_topic", string: stateTopic)
    lock.add("payload_lock", string: "LOCK")
    lock.add("payload_unlock", string: "UNLOCK")
    lock.add("state_locked", string: LockReport.State.locked.payload)
    lock.add("state_unlocked", string: LockReport.State.unlocked.payload)
    lock.add("state_jammed", string: LockReport.State.jammed.payload)
    lock.add("optimistic", raw: "false")
    lock.add("qos", 1)

    var failures = common(component: "sensor", suffix: "failures")
    failures.add("state_topic", string: failuresTopic)
    failures.add("state_class", string: "measurement")
    failures.add("icon", string: "mdi:lock-alert")

    var lockout = common(component: "sensor", suffix: "lockout")
    lockout.add("state_topic", string: lockoutTopic)
    lockout.add("value_template", string: "{{ value_json.locked_for_s }}")
    lockout.add("json_attributes_topic", string: lockoutTopic)
    lockout.add("device_class", string: "duration")
    lockout.add("unit_of_measurement", string: "s")

    var events = common(component: "event", suffix: "activity")
    events.add("state_topic", string: eventTopic)
    events.add("event_types", raw: HomeAssistantDevice.array(HomeAssistantDevice.eventTypes))

    var brightness = common(component: "number", suffix: "brightness")
    brightness.add("command_topic", string: brightnessCommandTopic)
    brightness.add("state_topic", string: brightnessTopic)
    brightness.add("min", RemoteCommand.brightnessRange.lowerBound)
    brightness.add("max", RemoteCommand.brightnessRange.upperBound)
    brightness.add("step", 1)
    brightness.add("unit_of_measurement", string: "%")
    brightness.add("mode", string: "slider")
    brightness.add("payload_reset", string: HomeAssistantDevice.brightnessUnknown)
    brightness.add("optimistic", raw: "false")
    brightness.add("entity_category", string: "config")
    brightness.add("icon", string: "mdi:brightness-6")
    brightness.add("qos", 1)

    return [
      (discoveryTopic("lock", "lock"), lock.json),
      (discoveryTopic("sensor", "failures"), failures.json),
      (discoveryTopic("sensor", "lockout"), lockout.json),
      (discoveryTopic("event", "activity"), events.json),
      (discoveryTopic("number", "brightness"), brightness.json),
    ]
  }

  private func discoveryTopic(_ component: String, _ object: String) -> String {
    "\(discoveryPrefix)/\(component)/\(node)/\(object)/config"
  }

  /// The keys every entity of the device has: its name, ids, availability and device.
  private func common(component: String, suffix: String) -> JSONObjectWriter {
    var entity = JSONObjectWriter()
    let title: String
    switch suffix {
    case "lock": title = "Lock"
    case "failures": title = "Failed attempts"
    case "lockout": title = "Lockout remaining"
    case "brightness": title = "Screen brightness"
    default: title = "Activity"
    }
    entity.add("name", string: title)
    entity.add("unique_id", string: "patternlock_\(node)_\(suffix)")
    entity.add("object_id", string: "\(node)_\(suffix)")
    entity.add("availability_topic", string: availabilityTopic)
    entity.add("payload_available", string: HomeAssistantDevice.online)
    entity.add("payload_not_available", string: HomeAssistantDevice.offline)
    var device = JSONObjectWriter()
    device.add("identifiers", raw: HomeAssistantDevice.array(["patternlock_\(node)"]))
    device.add("name", string: name)
    device.add("manufacturer", string: "patternlock")
    device.add("model", string: "Pattern lock")
    device.add("sw_version", string: softwareVersion)
    entity.add("device", raw: device.json)
    var origin = JSONObjectWriter()
    origin.add("name", string: "patternlock")
    origin.add("sw_version", string: softwareVersion)
    entity.add("origin", raw: origin.json)
    return entity
  }

  public static func array(_ strings: [String]) -> String {
    var text = "["
    for (index, string) in strings.enumerated() {
      if index > 0 { text += "," }
      JSONObjectWriter.appendQuoted(string, to: &text)
    }
    return text + "]"
  }
}
