import PatternCore

/// One line of the audit log: what happened, to which credential, with the failure
/// count after it, and when (wall clock; this boot and its monotonic time when known).
/// Never a pattern, nor anything computed from one.
///
/// Stored as one JSON object per line, keys in this order:
/// ```
/// {"time":"2026-12-02T20:55:26Z","wall":1796245000,"boot":"6f1c…a6","monotonic":81234567,"event":"attempt","credential":"owner","failures":3}
/// ```
/// `reason` follows `failures` when there is one (such as `tpm-count-lifted`), and
/// `guesses` follows it on `pattern-set` and `credential-added`: the new pattern's place
/// in an attacker's order as a bucket (`GuessEstimate.bucket`: `20`, `100`, `1000`,
/// `10000`, `100000` or `100000+`), never the pattern.
public struct AuditEntry: Equatable, Sendable {
  /// What an entry records.
  public enum Event: String, CaseIterable, Sendable {
    /// A pattern was counted as a failure and is about to be verified. An attempt with
    /// no verdict after it was never verified to be right: it stays counted as wrong.
    case attempt
    /// The attempt before it was verified right; the count is taken back after this.
    case unlocked
    /// The attempt before it was verified wrong.
    case wrong
    /// The failure count reached a lockout (`reason`: its length in seconds, or `permanent`).
    case lockout
    /// A pattern refused without being verified or counted (`reason`: `locked-out`,
    /// `repeat`, or `not-recorded` when its count could not be written).
    case refused
    /// A new pattern was stored (`reason`: `set-pattern` or `enroll`).
    case patternSet = "pattern-set"
    /// The count was cleared by `reset-attempts` (`reason`: `tpm-count-lifted` when the
    /// TPM's own count was lifted with the recovery key too).
    case attemptsReset = "attempts-reset"
    /// The exit button inside was pressed and the strike released without a pattern
    /// (`reason`: `no-strike` when there is no strike to release). No credential.
    case exitButton = "exit-button"
    /// The door contact opened with no strike release in the grant before it: the door
    /// was forced or the strike failed. No credential.
    case doorForced = "door-forced"
    /// The door stood open past door-held-open-s (`reason`: the seconds). No credential.
    case doorHeldOpen = "door-held-open"
    /// The door closed again after a door-forced or door-held-open entry. No credential.
    case doorClosed = "door-closed"
    /// A credential was added (`reason`: its role).
    case credentialAdded = "credential-added"
    /// A credential was removed.
    case credentialRemoved = "credential-removed"
    /// LOCK from the event socket (`patternlock mqtt`) locked again over the kiosk. No
    /// credential, no count.
    case remoteLock = "remote-lock"
    /// UNLOCK from the event socket opened the lock (`remote-unlock = yes`; `reason`:
    /// the user the command came through). No credential, no count.
    case remoteUnlock = "remote-unlock"
    /// UNLOCK from the event socket was refused (`reason`: `remote-unlock-off` when the
    /// system configuration does not allow it). No credential, no count.
    case remoteUnlockRefused = "remote-unlock-refused"
    /// A brightness from the event socket set the backlight's normal level (`reason`:
    /// the percent applied, after the system's bounds). No credential, no count.
    case remoteBrightness = "remote-brightness"

    /// Whether the event is the door's own (no credential, no count).
    public var isDoorEvent: Bool {
      switch self {
      case .exitButton, .doorForced, .doorHeldOpen, .doorClosed: return true
      default: return false
      }
    }

    /// Whether the event is a command from the event socket (no credential, no count).
    public var isRemoteCommand: Bool {
      switch self {
      case .remoteLock, .remoteUnlock, .remoteUnlockRefused, .remoteBrightness: return true
      default: return false
      }
    }

    /// Whether entries of the event name no credential and no count: the door's own
    /// and the remote commands; every judged event names both.
    public var isUnjudged: Bool { isDoorEvent || isRemoteCommand }

    /// The journal's MESSAGE_ID for entries of this event: fixed, so that
    /// `journalctl MESSAGE_ID=…` finds them across versions.
    public var messageID: String {
      switch self {
      case .attempt: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a01"
      case .unlocked: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a02"
      case .wrong: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a03"
      case .lockout: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a04"
      case .refused: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a05"
      case .patternSet: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a06"
      case .attemptsReset: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a07"
      case .exitButton: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a08"
      case .doorForced: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a09"
      case .doorHeldOpen: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0a"
      case .doorClosed: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0b"
      case .credentialAdded: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0c"
      case .credentialRemoved: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0d"
      case .remoteLock: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0e"
      case .remoteUnlock: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a0f"
      case .remoteUnlockRefused: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a10"
      case .remoteBrightness: return "3a9c6f0e5b8d4e21a7f2c4d61e0b9a11"
      }
    }
  }

  /// The credential of the pattern set with set-pattern or enroll.
  public static let owner = "owner"
  /// The credential of an entry written before the verdict (`attempt`, `refused`) or
  /// of a pattern that matched none, when the vault holds more than the owner's: no
  /// credential is known then. No name can be `-`.
  public static let unidentified = "-"

  public var wallSeconds: Int64
  public var boot: BootIdentity?
  public var monotonicMicroseconds: UInt64?
  public var event: Event
  /// The credential judged; nil for the door's own events and the remote commands.
  public var credential: String?
  /// The failure count after the event; nil for the door's own events and the remote commands.
  public var failures: Int?
  public var reason: String?
  /// A new pattern's guess bucket (`pattern-set`, `credential-added`), else nil.
  public var guesses: String?

  public init(
    event: Event, credential: String? = AuditEntry.owner, failures: Int?, reason: String? = nil, wallSeconds: Int64,
    boot: BootIdentity? = nil, monotonicMicroseconds: UInt64? = nil, guesses: String? = nil
  ) {
    self.guesses = guesses
    self.event = event
    self.credential = credential
    self.failures = failures
    self.reason = reason
    self.wallSeconds = wallSeconds
    self.boot = boot
    self.monotonicMicroseconds = monotonicMicroseconds
  }

  /// An entry at `instant` (its wall clock, and its boot and monotonic time when the
  /// instant belongs to this boot).
  public init(event: Event, credential: String? = AuditEntry.owner, failures: Int?, reason: String? = nil, at instant: UnlockInstant) {
    self.init(
      event: event, credential: credential, failures: failures, reason: reason, wallSeconds: instant.wallSeconds, boot: instant.boot,
      monotonicMicroseconds: instant.boot == nil ? nil : instant.monotonicMicroseconds)
  }

  /// The stored line, without its newline.
  public var jsonLine: String {
    var line = "{\"time\":\"\(UTCTime.format(wallSeconds))\",\"wall\":\(wallSeconds)"
    if let boot, let monotonicMicroseconds { line += ",\"boot\":\"\(boot.hex)\",\"monotonic\":\(monotonicMicroseconds)" }
    line += ",\"event\":\"\(event.rawValue)\""
    if let credential { line += ",\"credential\":\"\(AuditEntry.escaped(credential))\"" }
    if let failures { line += ",\"failures\":\(failures)" }
    if let reason { line += ",\"reason\":\"\(AuditEntry.escaped(reason))\"" }
    if let guesses { line += ",\"guesses\":\"\(AuditEntry.escaped(guesses))\"" }
    return line + "}"
  }

  /// The line `log` prints for a person: time, event, credential, failures, reason.
  public var humanLine: String {
    var line = "\(UTCTime.format(wallSeconds)) \(event.rawValue)"
    if let credential { line += " credential=\(credential)" }
    if let failures { line += " failures=\(failures)" }
    if let reason { line += " reason=\(reason)" }
    if let guesses { line += " guesses=\(guesses)" }
    return line
  }

  /// The entry a stored line holds, or nil when it is not one (a torn or changed line).
  public init?(jsonLine line: Substring) {
    guard let fields = FlatJSON.object(line), let wallText = fields["wall"], let wall = Int64(wallText),
      let eventText = fields["event"], let event = Event(rawValue: eventText)
    else { return nil }
    let credential = fields["credential"]
    var failures: Int?
    if let failuresText = fields["failures"] {
      guard let value = Int(failuresText), value >= 0 else { return nil }
      failures = value
    }
    // Every judged event names its credential and count; only the door's own and the
    // remote commands do not.
    guard event.isUnjudged || (credential != nil && failures != nil) else { return nil }
    var boot: BootIdentity?
    var monotonic: UInt64?
    if let bootText = fields["boot"] {
      guard let parsed = BootIdentity(hex: bootText), let monotonicText = fields["monotonic"],
        let value = UInt64(monotonicText)
      else { return nil }
      boot = parsed
      monotonic = value
    }
    self.init(
      event: event, credential: credential, failures: failures, reason: fields["reason"], wallSeconds: wall, boot: boot,
      monotonicMicroseconds: monotonic, guesses: fields["guesses"])
  }

  /// `text` as the inside of a JSON string: names are plain today, but a credential
  /// name chosen by an installer may hold a quote.
  public static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default:
        if scalar.value < 0x20 { out += "\\u00" + HexText.encode(bytes: [UInt8(scalar.value)]) }
        else { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
