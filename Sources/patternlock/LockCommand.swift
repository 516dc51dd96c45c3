import CShim
import Configuration
import PatternCore
import SystemCalls

/// `patternlock lock`: shows the lock again now, over the kiosk an unlock switched to
/// (`kiosk-unit`), which keeps running behind it. For a button or a timer (a unit that
/// runs this command) and for scripts; root only, as stopping a service is.
///
/// The running lock is told with SIGUSR1, sent by systemd to patternlock.service's
/// main process (`systemctl kill --kill-whom=main`): the unit knows its process, so no
/// PID file can point at the wrong one. A lock that is showing already ignores it.
enum LockCommand {
  /// The lock's unit, as the package installs it.
  static let unit = "patternlock.service"

  static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .lock)
      try parsed.refuseOperands(.lock)
    } catch {
      throw .usage(error)
    }
    let systemctl = PowerCommand.program()
    let status = PowerCommand.run([systemctl, "kill", "--kill-whom=main", "--signal=SIGUSR1", unit])
    guard status == 0 else {
      let why = status < 0 ? "cannot be started: \(Errno.current.text)" : "exited with status \(status)"
      Console.error("lock: '\(systemctl) kill --signal=SIGUSR1 \(unit)' \(why) (is \(unit) running? run me as root)")
      return .failure
    }
    return .success
  }
}
