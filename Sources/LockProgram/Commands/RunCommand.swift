import CommandKit
import Configuration
import FBDev
import Input
import KMS
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import Terminal
import Typeface
import Vault

/// `patternlock run`: the lock screen on the real display with live input.
///
/// Order matters for the messages: the secret is looked at first (nothing on the
/// display or console has changed when it is missing), then the display is taken (no
/// DRM device is the commonest problem on a development machine, and the message
/// points to the emulated board), then input, then the console is switched to
/// graphics. Every failure is thrown up to `main`; every owner (`KMSDisplay`,
/// `InputContext`, `LockConsole`, `EventLoop`) restores what it changed in its
/// `deinit` on the way, so SIGINT, SIGTERM, an unlock and a failure all leave the CRTC
/// and the VT as they were.
package enum RunCommand {
  /// Runs the lock; after an unlock, replaces the process with the `--exec` command
  /// (or the configuration's `exec`) once the display and console are restored.
  ///
  /// - Parameter started: when the process entered `main` (CLOCK_MONOTONIC µs), the
  ///   origin of `--timing`'s start-to-first-flip figure.
  /// - Returns: the exit status (when there is nothing to hand over to).
  package static func run(_ arguments: [String], started: UInt64? = nil) throws(CommandFailure) -> ExitStatus {
    let settings = try parse(arguments, enrolling: false)
    let status: ExitStatus
    switch try lock(settings, started: started, enrolling: false) {
    case .exit(let exit): status = exit
    // The display and the console were restored on the way out of `lock`.
    case .power(let action): return PowerCommand.carryOut(action)
    }
    guard status == .success, !settings.all.exec.isEmpty else { return status }
    throw .handOff(program: settings.all.exec[0], errno: HandOff.exec(settings.all.exec))
  }

  /// `patternlock enroll`: the same screen and input, but the pattern is drawn twice
  /// and stored (`EnrollmentGate`); exits 0 once it is saved. A configured `exec` is
  /// not run: an enrolment is not an unlock.
  package static func enroll(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    switch try lock(try parse(arguments, enrolling: true), started: nil, enrolling: true) {
    case .exit(let status): return status
    case .power(let action): return PowerCommand.carryOut(action)
    }
  }

  /// How the lock ended: a status to exit with, or a power action to carry out once
  /// the display and console are restored.
  package enum Ending {
    case exit(ExitStatus)
    case power(PowerAction)
  }

  private static func parse(_ arguments: [String], enrolling: Bool) throws(CommandFailure) -> RunSettings {
    return try lifting(CommandFailure.usage) { () throws(UsageError) in
      try RunSettings(arguments, enrolling: enrolling)
    }
  }

  /// The judge, then the display back-end, then the lock on it.
  private static func lock(_ settings: RunSettings, started: UInt64?, enrolling: Bool) throws(CommandFailure) -> Ending {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory()
    let command = enrolling ? "enroll" : "run"
    // First of all: a kiosk left running by a lock that ended while it was shown (a
    // crash, say) is frozen before this lock judges anything or fails on anything, so
    // a lock that cannot start (no pattern, a bad terminal) leaves it closed too.
    let kiosk = enrolling ? nil : settings.kiosk
    if let kiosk { _ = KioskFreezer.close(kiosk) }

    // The secret first: without one there is nothing to lock with, and nothing on
    // the display or console has been changed yet when that is said.
    var minimumDots = 4
    let statePath = settings.all.stateDirectory ?? StateDirectory.defaultPath
    // run --enroll-first with no pattern at all enrols first, then locks with it.
    let enrollsFirst = !enrolling && settings.all.pattern == nil && settings.all.enrollFirst && VaultGate.hasNoPattern(statePath)
    let grid = settings.screen.layout.gridSize
    let fewest = settings.all.minimumDots
    if (enrolling || enrollsFirst) && !(fewest >= 1 && fewest <= grid * grid) {
      throw .usage(UsageError("\(command): --min-dots takes 1 to \(grid * grid) for a \(grid)x\(grid) grid, not \(fewest)"))
    }
    var judge: RunJudge
    do throws(VaultError) {
      if enrolling || enrollsFirst {
        judge = .enrolment(
          try EnrollmentGate(stateDirectory: statePath, gridSize: grid, minimumDots: fewest, cost: settings.hashCost, settings: settings.all))
        minimumDots = fewest
        if enrollsFirst { Console.error("no pattern is set in \(statePath): enrolling one first (enroll-first)") }
      } else if let expected = settings.all.pattern {
        judge = .development(DevelopmentJudge(expected: expected, minimumDots: minimumDots, matchUnlocks: true))
      } else {
        let gate = try VaultGate(
          stateDirectory: statePath, throttle: settings.all.throttle, tcti: settings.all.tpmTCTI,
          patternGuard: PatternGuard(blocklistSize: settings.all.blocklistSize))
        minimumDots = gate.minimumDotsToCheck
        judge = .vault(gate)
      }
    } catch {
      throw .vault(error)
    }
    let actions = try LockStartKit.makeActions(settings.all)
    judge.act(with: actions)
    let door: DoorWatch
    door = try lifting(CommandFailure.door) { () throws(DoorWatchError) in
      try DoorWatch(settings.all, actions: actions)
    }

    // The boot splash, where plymouth shows one, keeps the display until the lock's first
    // picture is ready, then lets go of it; it ends after that picture (`BootSplash`).
    let splashShows =
      settings.all.headlessSize == nil
      && sayHandOver(BootSplash.ping(), done: "plymouth shows a boot splash: it keeps the display until the lock's first picture")
    // With a kiosk the lock's VT is made active before the display is taken, so a lock
    // restarted while the kiosk showed comes back on top of it, never behind.
    var terminal: LockTerminal? = nil
    if let kiosk {
      guard let number = TerminalNumber.onStandardInput() else {
        throw .kiosk(.terminal("kiosk-unit needs the lock on a virtual terminal (run it from patternlock.service, which has TTYPath=/dev/tty1)"))
      }
      if number == kiosk.terminal {
        throw .usage(UsageError("kiosk-vt \(number.rawValue) is the lock's own virtual terminal; give the kiosk another one (default 7)"))
      }
      terminal = try lifting(CommandFailure.kiosk) { () throws(KioskFailure) in try LockTerminal(number: number) }
    }
    // Held for the lock's whole run: the display is restored inside `lockOnDisplay`,
    // and the VT's switching mode only when `console` ends, after it.
    var console = LockConsole(terminal: terminal)
    var terminalKiosk: TerminalKiosk? = nil
    if let kiosk, let lent = console.lent { terminalKiosk = TerminalKiosk(plan: kiosk, lockTerminal: lent) }

    var plan = Plan(
      settings: settings, minimumDots: minimumDots, started: started, enrolling: enrolling, enrollsFirst: enrollsFirst,
      kiosk: terminalKiosk, door: door, actions: actions)
    plan.handsOverFromSplash = splashShows
    return try lockOnDisplay(settings, plan, console: &console, judge: &judge)
  }
}
