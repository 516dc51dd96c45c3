import CShim

extension CurrentProcess {
  /// Sends SIGTERM to this process (`raise(3)`): with the signal blocked and read from a
  /// signalfd, as the lock's loop reads it, the loop ends at its next wait exactly as
  /// `systemctl stop` would end it, restoring what it changed on the way.
  public static func askToStop() { pl_terminate_self() }
}
