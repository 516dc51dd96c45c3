import CommandKit
import Configuration
import PatternCore
import SystemCalls

/// `patternlock lock`: shows the lock again now, over the kiosk an unlock switched to
/// (`kiosk-unit`), which keeps running behind it. For a button or a timer (a unit that
/// runs this command) and for scripts; root only, as stopping a service is.
///
/// The running lock is told with SIGUSR1, sent by systemd to patternlock.service's
/// main process (`systemctl kill --kill-whom=main`): the unit knows its process, so no
/// PID file can point at the wrong one. A lock that is showing already ignores it; one
/// that is starting is waited for (the unit becomes active with its first frame).
package enum LockCommand {
  /// The lock's unit, as the package installs it.
  package static let unit = "patternlock.service"
  /// How long a lock that is starting may take to become active.
  package static let activeWaitMilliseconds = 30_000

  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .lock)
      try parsed.refuseOperands(.lock)
    } catch {
      throw .usage(error)
    }
    let systemctl = PowerCommand.program()
    // A lock still starting is locked already, and only once it is active (it sends
    // READY with its first frame, its signalfd open long before) is SIGUSR1 certain to
    // reach the lock rather than a process still becoming one.
    var waited = 0
    while PowerCommand.run([systemctl, "is-active", "--quiet", unit]) != 0 {
      guard waited < activeWaitMilliseconds else {
        Console.error("lock: \(unit) is not active after \(activeWaitMilliseconds / 1000) s, so nothing was sent (start it with 'systemctl start \(unit)'; 'systemctl status \(unit)' says why it is not running)")
        return .failure
      }
      sleep(milliseconds: 100)
      waited += 100
    }
    let status = PowerCommand.run([systemctl, "kill", "--kill-whom=main", "--signal=SIGUSR1", unit])
    guard status == 0 else {
      let why = status < 0 ? "cannot be started: \(Errno.current.text)" : "exited with status \(status)"
      Console.error("lock: '\(systemctl) kill --signal=SIGUSR1 \(unit)' \(why) (is \(unit) running? run me as root)")
      return .failure
    }
    return .success
  }
}
