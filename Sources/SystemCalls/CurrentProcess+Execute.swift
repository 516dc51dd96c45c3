import CShim

extension CurrentProcess {
  /// Replaces this process with `arguments[0]` (an absolute path: no PATH search, so
  /// a changed PATH cannot pick another program), with no signal blocked or pending and
  /// SIGUSR1/SIGUSR2 at their defaults (`pl_execv`, execv(2)).
  ///
  /// - Parameter arguments: the program and its arguments.
  /// - Returns: only when it failed: execv(2)'s `Errno`.
  public static func execute(_ arguments: [String]) -> Errno {
    CStringArray.with(arguments) { argv in
      _ = pl_execv(argv)
      return Errno.current
    }
  }
}
