import CommandKit
import SystemCalls
import Terminal

/// Keeps the kiosk frozen whenever the lock is on screen (`systemctl freeze`, the
/// cgroup v2 freezer), so that the kiosk fails closed when the lock process ends.
///
/// The lock's VT_PROCESS hold on its VT lasts only as long as the process: once it is
/// killed (a crash, the watchdog, the OOM killer, `systemctl stop`, SysRq's SAK) the
/// kernel lets any switch to the kiosk's VT through, and logind hands the display to
/// the kiosk at once. A frozen compositor cannot draw, read input or take the display,
/// whoever makes its VT active; its processes keep their state and PIDs, and only a
/// judged unlock thaws them (or root, with `systemctl thaw`). docs/security.md,
/// "The kiosk fails closed", says why this and not `BindsTo=` or logind's session lock.
///
/// Freezing the kiosk's unit alone is not enough: pam_systemd (`PAMName=`) has logind
/// move the unit's main process, the compositor, into the session's scope in the
/// user's slice, so the unit's own cgroup may hold nothing at all while the kiosk
/// runs (the boot test sees it empty). The slice of the kiosk's user
/// (`user-UID.slice`, the owner of the kiosk's VT while it runs) is frozen too: that
/// holds the session's scope, whatever its number, and any scope or process the
/// session starts meanwhile is frozen as it appears.
package enum KioskFreezer {
  /// What `close` left the kiosk as.
  package enum Closing: Equatable {
    /// Its unit was not running: nothing to show.
    case notRunning
    /// Frozen (or already frozen).
    case frozen
    /// Freezing failed; its unit is being stopped instead.
    case stopping
    /// Neither freezing nor stopping could be asked for: it runs, behind the lock only.
    case open
  }

  /// Freezes the kiosk when its unit runs; when that fails, stops the unit instead (fail
  /// closed). Called before the lock takes the screen back, at start-up and on every
  /// relock. The stop is queued with `--no-block`: systemd carries it out even if the
  /// lock dies meanwhile, and a kiosk slow to stop cannot hold the lock past its watchdog.
  package static func close(_ kiosk: KioskPlan, program: String = PowerCommand.program()) -> Closing {
    guard isActive(kiosk.unit, program: program) else { return .notRunning }
    var failed: [String] = []
    for unit in units(kiosk) where PowerCommand.run([program, "freeze", unit]) != 0 {
      failed.append(unit)
    }
    if failed.isEmpty {
      Console.out("patternlock: \(kiosk.unit) frozen behind the lock (\(units(kiosk).joined(separator: ", ")))")
      return .frozen
    }
    let what = failed.joined(separator: ", ")
    let stopped = PowerCommand.run([program, "stop", "--no-block", kiosk.unit])
    guard stopped == 0 else {
      Console.error("cannot freeze \(what) nor stop \(kiosk.unit) (status \(stopped)): it runs behind the lock; check 'systemctl status \(kiosk.unit)'")
      return .open
    }
    Console.error("cannot freeze \(what); stopping \(kiosk.unit) rather than leave it behind the lock unfrozen")
    return .stopping
  }

  /// Thaws the kiosk when its unit runs, just before the switch to its VT after a judged
  /// unlock.
  ///
  /// - Returns: nil when the kiosk may be shown (thawed, or not running, so it is about
  ///   to be started), else why not.
  package static func open(_ kiosk: KioskPlan, program: String = PowerCommand.program()) -> String? {
    guard isActive(kiosk.unit, program: program) else { return nil }
    for unit in units(kiosk) {
      let thawed = PowerCommand.run([program, "thaw", unit])
      if thawed != 0 {
        return "'\(program) thaw \(unit)' failed (status \(thawed)); check 'systemctl status \(kiosk.unit)'"
      }
    }
    return nil
  }

  /// What is frozen: the slice of the user that owns the kiosk's VT (systemd gives the
  /// unit's `User=` the terminal it runs on), then the unit itself. A kiosk running as
  /// root has only its unit frozen: root's slice holds the administrator's sessions too.
  package static func units(_ kiosk: KioskPlan) -> [String] {
    var units: [String] = []
    if let status = try? FileStatus(ofPath: kiosk.terminal.path, followingSymlinks: true), status.owner != 0 {
      units.append("user-\(status.owner).slice")
    }
    units.append(kiosk.unit)
    return units
  }

  /// Whether `unit` is active (a frozen unit is). An activating or deactivating kiosk is
  /// not: it holds no session yet, or no longer. A unit whose cgroup holds no process
  /// is not either, and systemd is asked only when it may have one (`UnitProcesses`).
  private static func isActive(_ unit: String, program: String) -> Bool {
    guard UnitProcesses.of(unit) != .none else { return false }
    return PowerCommand.run([program, "is-active", "--quiet", unit]) == 0
  }
}
