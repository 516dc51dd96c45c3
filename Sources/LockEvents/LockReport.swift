import PatternCore

/// What `patternlock mqtt` knows of the lock, from the lines of the event socket, and
/// the MQTT messages each line calls for: the lock's state, the failure count and the
/// lockout (retained, so Home Assistant has them after its own restart), and an event
/// for what happened. Pure: the caller gives the time and sends the messages.
public struct LockReport {
  /// The lock entity's state.
  public enum State: Equatable {
    case locked
    case unlocked
    /// An attempt could not be counted, so none is judged ("not judged"): the lock
    /// stays shut, and someone must look at the device.
    case jammed

    public var payload: String {
      switch self {
      case .locked: return "LOCKED"
      case .unlocked: return "UNLOCKED"
      case .jammed: return "JAMMED"
      }
    }
  }

  /// A lockout as reported: its length from when it was reported.
  public enum Lockout: Equatable {
    case none
    case seconds(Int)
    case untilReset
  }

  public let device: HomeAssistantDevice
  public private(set) var state: State?
  public private(set) var failures: Int?
  /// The brightness state as last published (a percent, or `None`); nil before the
  /// lock said anything.
  public private(set) var brightness: String?
  /// A brightness was passed to the lock: its answer is published even when the level
  /// stayed (a value clamped to where it was), so Home Assistant's slider goes back.
  private var brightnessAwaited = false
  /// When a timed lockout ends (µs, the caller's clock), or nil.
  private var lockoutEnds: UInt64?
  private var untilReset = false
  /// The remaining seconds last published, so the countdown is sent only as it moves.
  private var publishedRemaining: Int?

  /// How often a running lockout's remaining time is sent again.
  public static let countdownStepSeconds = 10

  public init(device: HomeAssistantDevice) { self.device = device }

  /// The messages `line` calls for at `now` (µs).
  public mutating func take(_ line: LockEventLine, at now: UInt64) -> [OutgoingMessage] {
    var messages: [OutgoingMessage] = []
    switch line {
    case .state(let shown):
      messages += set(state: shown.unlocked ? .unlocked : .locked)
      messages += set(failures: shown.failures)
      messages += set(lockout: shown.lockout, at: now)
      switch shown.brightness {
      case .unsaid: break
      case .none: messages += set(brightness: HomeAssistantDevice.brightnessUnknown)
      case .percent(let percent): messages += set(brightness: "\(percent)")
      }
    case .audit(let entry):
      messages += take(entry, at: now)
    }
    return messages
  }

  private mutating func take(_ entry: AuditEntry, at now: UInt64) -> [OutgoingMessage] {
    var messages: [OutgoingMessage] = []
    var types: [String] = []
    switch entry.event {
    case .attempt:
      // Counted before it is verified: the count moves now, the verdict follows.
      if state == .jammed { messages += set(state: .locked) }
    case .unlocked:
      types.append("unlock")
      if entry.reason == "duress" { types.append("duress") }
      messages += set(state: .unlocked)
      messages += set(lockout: .none, at: now)
    case .wrong:
      types.append("wrong")
      messages += set(state: .locked)
    case .lockout:
      types.append("lockout")
      let seconds = entry.reason.flatMap { Int($0) }
      messages += set(lockout: seconds.map { .seconds($0) } ?? .untilReset, at: now)
    case .refused:
      if entry.reason == "not-recorded" {
        types.append("not_judged")
        messages += set(state: .jammed)
      } else {
        types.append("refused")
      }
    case .patternSet: types.append("pattern_set")
    case .attemptsReset:
      types.append("attempts_reset")
      messages += set(lockout: .none, at: now)
    case .exitButton: types.append("exit_button")
    case .doorForced: types.append("door_forced")
    case .doorHeldOpen: types.append("door_held_open")
    case .doorClosed: types.append("door_closed")
    case .credentialAdded: types.append("credential_added")
    case .credentialRemoved: types.append("credential_removed")
    case .remoteLock:
      types.append("remote_lock")
      messages += set(state: .locked)
    case .remoteUnlock:
      types.append("remote_unlock")
      messages += set(state: .unlocked)
    case .remoteUnlockRefused:
      types.append("remote_unlock_refused")
    case .remoteBrightness:
      // The level applied comes in the state line that follows.
      break
    }
    if let count = entry.failures { messages += set(failures: entry.event == .unlocked ? 0 : count) }
    for type in types { messages.append(event(type, entry)) }
    return messages
  }

  /// The lockout's countdown at `now`: a message when the remaining time has moved a
  /// step (or ended) since it was last sent.
  public mutating func tick(at now: UInt64) -> [OutgoingMessage] {
    guard let ends = lockoutEnds else { return [] }
    let remaining = now >= ends ? 0 : Int((ends - now + 999_999) / 1_000_000)
    if remaining == 0 {
      lockoutEnds = nil
      publishedRemaining = 0
      return [lockoutMessage(kind: "none", seconds: 0)]
    }
    guard let last = publishedRemaining, last - remaining >= LockReport.countdownStepSeconds else { return [] }
    publishedRemaining = remaining
    return [lockoutMessage(kind: "timed", seconds: remaining)]
  }

  /// Everything retained, as it stands (sent again after each connection).
  public func snapshot(at now: UInt64) -> [OutgoingMessage] {
    var messages: [OutgoingMessage] = []
    if let state { messages.append(OutgoingMessage(topic: device.stateTopic, payload: state.payload, retain: true)) }
    if let failures { messages.append(OutgoingMessage(topic: device.failuresTopic, payload: "\(failures)", retain: true)) }
    if let brightness { messages.append(OutgoingMessage(topic: device.brightnessTopic, payload: brightness, retain: true)) }
    if untilReset {
      messages.append(lockoutMessage(kind: "until-reset", seconds: nil))
    } else if let ends = lockoutEnds, ends > now {
      messages.append(lockoutMessage(kind: "timed", seconds: Int((ends - now + 999_999) / 1_000_000)))
    } else if state != nil {
      messages.append(lockoutMessage(kind: "none", seconds: 0))
    }
    return messages
  }

  private mutating func set(state new: State) -> [OutgoingMessage] {
    guard state != new else { return [] }
    state = new
    return [OutgoingMessage(topic: device.stateTopic, payload: new.payload, retain: true)]
  }

  /// A brightness was passed to a running lock: its next state line's level is sent
  /// whether or not it moved.
  public mutating func awaitBrightness() { brightnessAwaited = true }

  private mutating func set(brightness new: String) -> [OutgoingMessage] {
    guard brightness != new || brightnessAwaited else { return [] }
    brightnessAwaited = false
    brightness = new
    return [OutgoingMessage(topic: device.brightnessTopic, payload: new, retain: true)]
  }

  private mutating func set(failures new: Int) -> [OutgoingMessage] {
    guard failures != new else { return [] }
    failures = new
    return [OutgoingMessage(topic: device.failuresTopic, payload: "\(new)", retain: true)]
  }

  private mutating func set(lockout new: Lockout, at now: UInt64) -> [OutgoingMessage] {
    switch new {
    case .none:
      guard lockoutEnds != nil || untilReset || publishedRemaining == nil else { return [] }
      lockoutEnds = nil
      untilReset = false
      publishedRemaining = 0
      return [lockoutMessage(kind: "none", seconds: 0)]
    case .untilReset:
      guard !untilReset else { return [] }
      lockoutEnds = nil
      untilReset = true
      publishedRemaining = nil
      return [lockoutMessage(kind: "until-reset", seconds: nil)]
    case .seconds(let seconds):
      untilReset = false
      guard seconds > 0 else { return set(lockout: .none, at: now) }
      lockoutEnds = now + UInt64(seconds) * 1_000_000
      publishedRemaining = seconds
      return [lockoutMessage(kind: "timed", seconds: seconds)]
    }
  }

  /// `{"lockout":"timed","locked_for_s":25}`; until a reset, no seconds (the sensor
  /// is then unknown, and its `lockout` attribute says why).
  private func lockoutMessage(kind: String, seconds: Int?) -> OutgoingMessage {
    var payload = JSONObjectWriter()
    payload.add("lockout", string: kind)
    if let seconds { payload.add("locked_for_s", seconds) }
    return OutgoingMessage(topic: device.lockoutTopic, payload: payload.json, retain: true)
  }

  /// The event entity's message: its type, the credential and count when the entry
  /// has them, the reason, and the entry's time.
  private func event(_ type: String, _ entry: AuditEntry) -> OutgoingMessage {
    var payload = JSONObjectWriter()
    payload.add("event_type", string: type)
    if let credential = entry.credential, credential != AuditEntry.unidentified { payload.add("credential", string: credential) }
    if let failures = entry.failures { payload.add("failures", failures) }
    if let reason = entry.reason, reason != "duress" { payload.add("reason", string: reason) }
    payload.add("time", string: UTCTime.format(entry.wallSeconds))
    return OutgoingMessage(topic: device.eventTopic, payload: payload.json, retain: false)
  }
}
