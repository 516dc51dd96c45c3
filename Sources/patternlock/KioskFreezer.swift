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
enum KioskFreezer {
  /// What `close` left the kiosk as.
  enum Closing: Equatable {
    /// Its unit was not running: nothing to show.
    case notRunning
    /// Frozen (or already frozen).
    case frozen
    /// Freezing failed; its unit is being stopped instead.
    case stopping
    /// Neither freezing nor stopping could be asked for: it runs, behind the lock only.
    case open
  }

  /// Freezes `unit` when it runs; when that fails, stops it instead (fail closed). Called
  /// before the lock takes the screen back, at start-up and on every relock. The stop is
  /// queued with `--no-block`: systemd carries it out even if the lock dies meanwhile,
  /// and a kiosk slow to stop cannot hold the lock past its watchdog.
  static func close(_ unit: String, program: String = PowerCommand.program()) -> Closing {
    guard isActive(unit, program: program) else { return .notRunning }
    let frozen = PowerCommand.run([program, "freeze", unit])
    if frozen == 0 {
      Console.out("patternlock: \(unit) frozen behind the lock")
      return .frozen
    }
    let stopped = PowerCommand.run([program, "stop", "--no-block", unit])
    guard stopped == 0 else {
      Console.error("cannot freeze \(unit) ('\(program) freeze' status \(frozen)) nor stop it (status \(stopped)): it runs behind the lock; check 'systemctl status \(unit)'")
      return .open
    }
    Console.error("cannot freeze \(unit) ('\(program) freeze' status \(frozen)); stopping it rather than leave it behind the lock unfrozen")
    return .stopping
  }

  /// Thaws `unit` when it runs, just before the switch to its VT after a judged unlock.
  ///
  /// - Returns: nil when the kiosk may be shown (thawed, or not running, so it is about
  ///   to be started), else why not.
  static func open(_ unit: String, program: String = PowerCommand.program()) -> String? {
    guard isActive(unit, program: program) else { return nil }
    let thawed = PowerCommand.run([program, "thaw", unit])
    guard thawed == 0 else {
      return "'\(program) thaw \(unit)' failed (status \(thawed)); check 'systemctl status \(unit)'"
    }
    return nil
  }

  /// Whether `unit` is active (a frozen unit is). An activating or deactivating kiosk is
  /// not: it holds no session yet, or no longer.
  private static func isActive(_ unit: String, program: String) -> Bool {
    PowerCommand.run([program, "is-active", "--quiet", unit]) == 0
  }
}
