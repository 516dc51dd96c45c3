/// Which sources may set a key: the settings table's mark for each row, so that a key
/// which acts with root's privileges cannot be added without saying so.
public enum SettingTrust: Sendable {
  /// Any file or the command line: how the screen looks, which display and input to
  /// use, where the state lives (which must be the effective user's own, 0700).
  case anySource
  /// Runs a program, chooses a user, a unit, a GPIO line or a VT, or powers the machine
  /// off or reboots it. When the process runs as root, only the trusted system
  /// configuration sets it; an ordinary user may set it anywhere, as it can then act
  /// only as that user.
  case privileged
  /// The throttle: only the trusted system configuration sets it, whoever runs, so
  /// that whoever runs `check` or `run` can never loosen it.
  case systemOnly
}
