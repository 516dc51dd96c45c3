import CShim

/// A program this process started and will wait for (`pl_spawn`, posix_spawn(3)).
///
/// `~Copyable`, so it is waited for once: the wait is `consuming`. One that is never
/// waited for stays a zombie until this process ends.
public struct ChildProcess: ~Copyable {
  /// The child's process ID.
  public let id: ProcessID

  /// Starts `arguments[0]` (an absolute path: no shell, no PATH search) with this
  /// process's environment, no signal blocked and SIGUSR1/SIGUSR2 at their defaults.
  /// Never retried after a signal: a retried spawn would run the program twice.
  ///
  /// - Parameter arguments: the program and its arguments.
  /// - Throws: posix_spawn(3)'s `Errno` when it could not be started.
  public static func spawn(_ arguments: [String]) throws(Errno) -> ChildProcess {
    let pid = CStringArray.with(arguments) { argv in pl_spawn(argv) }
    guard pid > 0 else { throw .current }
    return ChildProcess(id: ProcessID(rawValue: pid))
  }

  /// The child `id`, which this process started some other way (such as a detached
  /// start's first child).
  public init(id: ProcessID) {
    self.id = id
  }

  /// Waits until the child ends (`pl_wait_child`, waitpid(2)); only the wait is
  /// repeated after a signal.
  ///
  /// - Returns: how it ended.
  /// - Throws: waitpid(2)'s `Errno`.
  public consuming func waitForExit() throws(Errno) -> TerminationStatus {
    var exitCode: Int32 = 0
    var signal: Int32 = 0
    let pid = id.rawValue
    try retryingInterrupts { pl_wait_child(pid, &exitCode, &signal) }
    return TerminationStatus(exitCode: exitCode, signal: signal)
  }
}
