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
  case judge
  case resetAttempts = "reset-attempts"
  case status
  case lock
  case log
  case credential
  case sessionLock = "session-lock"
  case mqtt
  case passwordAgent = "password-agent"
  case disk

  /// The command as typed.
  public var name: String { rawValue }

  /// Whether the command reads patternlock.conf (those that take `--config`).
  public var readsConfiguration: Bool { Setting.config.row.commands.contains(self) }

  /// Whether, run as root, the command takes privileged keys only from the trusted
  /// system configuration. Every command does but `replay` and `layout`, which never
  /// act on them (replay only reports a timeout's or the power button's action; layout
  /// only draws); the rest refuse a misplaced key even where they do not use it, so
  /// `patternlock status` shows the mistake before the lock starts.
  public var guardsPrivilegedKeys: Bool { self != .replay && self != .layout }
}
