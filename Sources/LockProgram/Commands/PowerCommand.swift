import CommandKit
import PatternCore
import SystemCalls

/// Carries out a power action the lock asked for (the unattended timeout, the power
/// button), once the display and the console are restored: `systemctl poweroff` or
/// `systemctl reboot`, spawned directly (an absolute path, no shell), so systemd stops
/// the services and unmounts the file systems as for any shutdown.
///
/// The reboot(2) system call is deliberately not a fallback: it would skip all of
/// that. When systemctl fails the failure is said and the lock exits with status 1,
/// which never opens anything (a unit restarts the lock). Either way the status is
/// never 0.
package enum PowerCommand {
  /// The program asked.
  package static let systemctl = "/usr/bin/systemctl"
  /// Debug builds only (as PATTERNLOCK_CONFIG_ROOT): another program in systemctl's
  /// place, so the tests can run the action without switching their machine off.
  package static let overrideVariable = "PATTERNLOCK_SYSTEMCTL"
  /// How long to wait for systemd to stop the lock after it accepted the job.
  package static let secondsForSystemd = 90

  /// systemctl, or in a debug build the program `PATTERNLOCK_SYSTEMCTL` names.
  package static func program() -> String {
    #if DEBUG
    if let path = CurrentProcess.environmentVariable(overrideVariable), path.hasPrefix("/") { return path }
    #endif
    return systemctl
  }

  /// Asks for `action`, then waits up to `waitingSeconds` for systemd's SIGTERM (the
  /// shutdown stops the lock's unit), so the lock does not restart meanwhile.
  ///
  /// - Returns: the exit status, which is never success.
  package static func carryOut(_ action: PowerAction, program: String = program(), waitingSeconds: Int = secondsForSystemd) -> ExitStatus {
    Console.out("patternlock: \(action.name) asked at the lock; display and console restored; running \(program) \(action.name)")
    let status: TerminationStatus
    do throws(Errno) {
      status = try ChildProcess.spawn([program, action.name]).waitForExit()
    } catch {
      return refused(action, program: program, why: "cannot be started: \(error.text)")
    }
    guard status.isSuccess else { return refused(action, program: program, why: "exited with status \(status.shellStatus)") }
    for _ in 0..<waitingSeconds { sleep(milliseconds: 1000) }
    return .failure
  }

  private static func refused(_ action: PowerAction, program: String, why: String) -> ExitStatus {
    Console.error("\(program) \(action.name) \(why); the lock stays closed (exit status 1)")
    return .failure
  }

  /// Spawns `words` and waits: its exit status (128 plus the signal when one ended it),
  /// or -1 when it did not start. Only the wait is retried after a signal: a retried
  /// spawn would run it twice.
  package static func run(_ words: [String]) -> Int32 {
    do throws(Errno) {
      return try ChildProcess.spawn(words).waitForExit().shellStatus
    } catch {
      return -1
    }
  }
}
