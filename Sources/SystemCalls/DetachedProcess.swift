import CShim

/// Starting programs that this process never waits for (hooks, the door strike's
/// pulse): a first child detaches (a new session, no inherited descriptors, output to
/// the journal), forks the program and exits at once, so the program is reparented.
/// Only the first child is waited for, so nothing here waits for the program itself.
public enum DetachedProcess {
  /// Starts `arguments[0]` (an absolute path) detached with exactly `environment`, as
  /// `account` when this process is root, its output to the journal's stream socket
  /// `journal` (`pl_spawn_detached`).
  ///
  /// - Parameters:
  ///   - arguments: the program and its arguments.
  ///   - environment: its whole environment, `NAME=value` each.
  ///   - account: whom it runs as (ignored unless this process is root).
  ///   - journal: the journal's stream socket; without one, output goes to /dev/null.
  /// - Throws: `Errno` when it was not started (see `waitForFirstChild`).
  public static func start(
    _ arguments: [String], environment: [String], as account: UserAccount, output journal: String
  ) throws(Errno) {
    let first = CStringArray.with(arguments) { argv in
      CStringArray.with(environment) { envp in
        journal.withCString { pl_spawn_detached(argv, envp, account.user.rawValue, account.group.rawValue, $0) }
      }
    }
    try waitForFirstChild(first)
  }

  /// Waits for a detached start's first child, whose pid `pl_spawn_detached` or
  /// `pl_gpio_pulse_detached` returned. Only the wait is repeated after a signal,
  /// never the start: a retried fork would start the program twice.
  ///
  /// - Parameter pid: what the start returned (-1 when its fork failed, with errno).
  /// - Throws: the fork's or the wait's `Errno`, or what the first child's exit status
  ///   says (`failure(of:)`); it wrote why to the journal.
  public static func waitForFirstChild(_ pid: Int32) throws(Errno) {
    guard pid > 0 else { throw .current }
    if let failure = failure(of: try ChildProcess(id: ProcessID(rawValue: pid)).waitForExit()) { throw failure }
  }

  /// What a first child's end means: nil when it exited 0 (the program is started),
  /// `.notPermitted` for status 1 (it could not become the user), `.noChild` for any
  /// other status or a signal.
  static func failure(of status: TerminationStatus) -> Errno? {
    switch status {
    case .exited(0): return nil
    case .exited(1): return .notPermitted
    default: return .noChild
    }
  }
}
