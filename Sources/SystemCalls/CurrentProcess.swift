import CShim

/// This process: its identity, arguments, environment, exit and protections (one
/// extension for each).
public enum CurrentProcess {
  /// This process's ID (`pl_getpid`).
  public static var id: ProcessID { ProcessID(rawValue: pl_getpid()) }

  /// Ends the process with `status` (`pl_exit`, exit(3)).
  public static func exit(status: Int32) -> Never { pl_exit(status) }
}
