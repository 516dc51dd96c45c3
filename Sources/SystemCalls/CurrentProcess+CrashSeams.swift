import CShim

extension CurrentProcess {
  /// Ends the process at once with `status`, running no exit handlers and flushing
  /// nothing (`_exit(2)`): what a crash between two writes leaves behind, for the
  /// debug builds' crash seams.
  public static func exitImmediately(status: Int32) -> Never { pl_exit_immediately(status) }

  /// Stops the process (SIGSTOP to itself) until a SIGCONT, for the debug builds' seams
  /// that let a test act while a write is half done.
  public static func stopSelf() { pl_stop_self() }
}
