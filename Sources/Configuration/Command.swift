/// The sub-commands of patternlock, as the settings table names them in each row's
/// list of the commands that take an option.
public enum Command: String, CaseIterable, Sendable {
  case layout
  case replay
  case run
  case inject
  case enroll
  case setPattern = "set-pattern"
  case check
  case resetAttempts = "reset-attempts"
  case status
  case lock

  /// The command as typed.
  public var name: String { rawValue }

  /// Whether the command reads patternlock.conf (those that take `--config`).
  public var readsConfiguration: Bool { Setting.config.row.commands.contains(self) }
}
