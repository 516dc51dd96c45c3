/// What the lock screen does when nobody has touched it for `timeout-s` seconds
/// (unl0kr's timeout): an unattended panel is switched off, restarted or blanked.
public enum TimeoutAction: String, Sendable, CaseIterable {
  /// Shut the machine down (`systemctl poweroff`); the lock never opens.
  case poweroff
  /// Restart the machine (`systemctl reboot`); the lock never opens.
  case reboot
  /// Switch the display off, as idle blanking does; a touch wakes it.
  case blank
  /// Nothing: the timeout is off.
  case none

  /// The action by its name in the settings, or nil for any other word.
  public init?(name: String) { self.init(rawValue: name) }

  /// The name in the settings and in `replay`'s JSON lines.
  public var name: String { rawValue }

  /// The machine's power action this asks for, if any.
  public var powerAction: PowerAction? {
    switch self {
    case .poweroff: return .poweroff
    case .reboot: return .reboot
    case .blank, .none: return nil
    }
  }
}

/// Switching the machine off or restarting it: asked by the timeout or by the power
/// button's long press, carried out by the executable once the display and console
/// are restored (never in `replay`).
public enum PowerAction: String, Sendable {
  case poweroff
  case reboot

  /// The word in `replay`'s JSON lines, and the `systemctl` verb.
  public var name: String { rawValue }
}
