import CShim

extension CurrentProcess {
  /// Ignores SIGPIPE from now on (`pl_ignore_broken_pipes`): a write to a socket or
  /// pipe whose reader has gone then fails with EPIPE, which the writer handles, instead
  /// of ending the process before it has counted, logged or run its hooks. Programs the
  /// process executes get SIGPIPE back at its default.
  public static func ignoreBrokenPipes() { pl_ignore_broken_pipes() }
}
