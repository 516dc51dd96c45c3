/// What a finished child process left: its exit status and everything it printed.
///
/// Made only by `ChildProcess.run` (the memberwise initialiser stays internal).
public struct CommandResult: Equatable {
  /// The exit status (or the signal number, for a process killed by a signal).
  public let status: Int32
  /// Standard output, decoded as UTF-8.
  public let stdout: String
  /// Standard error, decoded as UTF-8.
  public let stderr: String
}
