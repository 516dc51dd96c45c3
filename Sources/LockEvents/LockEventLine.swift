import PatternCore

/// One line the lock sends on the event socket (docs/door-panel.md, "The event
/// socket"): an audit entry exactly as the audit log stores it, or, from the running
/// lock's own connection, a state line saying what is on screen:
/// `{"event":"state","state":"locked","failures":2,"lockout":"timed","locked_for_s":25,"brightness":40}`
/// (`state` is `locked` or `unlocked`; `lockout` `none`, `timed` or `until-reset`;
/// `brightness` the backlight's normal level in percent, `none` without one, absent
/// while the lock has not looked at its display yet).
public enum LockEventLine: Equatable {
  case audit(AuditEntry)
  case state(LockStateLine)

  /// The line's meaning, or nil for anything else (said by the caller, then ignored).
  public init?(_ line: Substring) {
    if let entry = AuditEntry(jsonLine: line) {
      self = .audit(entry)
      return
    }
    guard let state = LockStateLine(line) else { return nil }
    self = .state(state)
  }
}

/// The running lock's own account of itself, sent when its connection is made,
/// whenever the lock is shown or opened, and after a brightness command.
public struct LockStateLine: Equatable {
  public var unlocked: Bool
  public var failures: Int
  public var lockout: LockReport.Lockout
  public var brightness: Brightness

  /// The backlight as the lock last said it.
  public enum Brightness: Equatable {
    /// Not said: the lock has not opened its display yet (or is older than the field).
    case unsaid
    /// There is no backlight the lock can set.
    case none
    /// The backlight's normal level, 1 to 100 % of its range.
    case percent(Int)
  }

  public init(unlocked: Bool, failures: Int, lockout: LockReport.Lockout, brightness: Brightness = .unsaid) {
    self.unlocked = unlocked
    self.failures = failures
    self.lockout = lockout
    self.brightness = brightness
  }

  public init?(_ line: Substring) {
    guard let fields = FlatJSON.object(line), fields["event"] == "state", let shown = fields["state"],
      shown == "locked" || shown == "unlocked", let failuresText = fields["failures"], let failures = Int(failuresText),
      failures >= 0, let kind = fields["lockout"]
    else { return nil }
    switch kind {
    case "none": lockout = .none
    case "until-reset": lockout = .untilReset
    case "timed":
      guard let text = fields["locked_for_s"], let seconds = Int(text), seconds >= 0 else { return nil }
      lockout = .seconds(seconds)
    default: return nil
    }
    switch fields["brightness"] {
    case .none: brightness = .unsaid
    case "none": brightness = .none
    case .some(let text):
      guard let percent = Int(text), percent >= 1, percent <= 100 else { return nil }
      brightness = .percent(percent)
    }
    unlocked = shown == "unlocked"
    self.failures = failures
  }

  /// The line as sent, without its newline.
  public var jsonLine: String {
    var line = "{\"event\":\"state\",\"state\":\"\(unlocked ? "unlocked" : "locked")\",\"failures\":\(failures)"
    switch lockout {
    case .none: line += ",\"lockout\":\"none\",\"locked_for_s\":0"
    case .untilReset: line += ",\"lockout\":\"until-reset\",\"locked_for_s\":0"
    case .seconds(let seconds): line += ",\"lockout\":\"timed\",\"locked_for_s\":\(seconds)"
    }
    switch brightness {
    case .unsaid: break
    case .none: line += ",\"brightness\":\"none\""
    case .percent(let percent): line += ",\"brightness\":\(percent)"
    }
    return line + "}"
  }
}
