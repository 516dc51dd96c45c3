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
/// `InputContext`, `ConsoleMode`, `EventLoop`) restores what it changed in its
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
    guard status == .success, !settings.exec.isEmpty else { return status }
    throw .handOff(program: settings.exec[0], errno: HandOff.exec(settings.exec))
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
    do throws(UsageError) {
      return try RunSettings(arguments, enrolling: enrolling)
    } catch {
      throw .usage(error)
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
    let statePath = settings.stateDirectory ?? StateDirectory.defaultPath
    // run --enroll-first with no pattern at all enrols first, then locks with it.
    let enrollsFirst = !enrolling && settings.expected == nil && settings.enrollFirst && VaultGate.hasNoPattern(statePath)
    let grid = settings.screen.layout.gridSize
    let fewest = settings.minimumDotsToEnroll
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
      } else if let expected = settings.expected {
        judge = .development(DevelopmentJudge(expected: expected, minimumDots: minimumDots, matchUnlocks: true))
      } else {
        let gate = try VaultGate(
          stateDirectory: statePath, throttle: settings.throttle, tcti: settings.all.tpmTCTI,
          patternGuard: PatternGuard(blocklistSize: settings.all.blocklistSize))
        minimumDots = gate.minimumDotsToCheck
        judge = .vault(gate)
      }
    } catch {
      throw .vault(error)
    }
    let actions = try makeActions(settings.all)
    judge.act(with: actions)
    let door: DoorWatch
    do throws(DoorWatchError) {
      door = try DoorWatch(settings.all, actions: actions)
    } catch {
      throw .door(error)
    }

    // With a kiosk the lock's VT is made active before the display is taken, so a lock
    // restarted while the kiosk showed comes back on top of it, never behind.
    // `terminal` lives to the end of this function (the lock's whole run), and with it
    // the descriptor lent to the loops.
    let terminal: LockTerminal?
    var terminalKiosk: TerminalKiosk?
    if let kiosk {
      guard let number = TerminalNumber.onStandardInput() else {
        throw .kiosk(.terminal("kiosk-unit needs the lock on a virtual terminal (run it from patternlock.service, which has TTYPath=/dev/tty1)"))
      }
      if number == kiosk.terminal {
        throw .usage(UsageError("kiosk-vt \(number.rawValue) is the lock's own virtual terminal; give the kiosk another one (default 7)"))
      }
      let opened: LockTerminal
      do throws(KioskFailure) {
        opened = try LockTerminal(number: number)
      } catch {
        throw .kiosk(error)
      }
      terminalKiosk = TerminalKiosk(plan: kiosk, lockTerminal: opened.lent)
      terminal = consume opened
    } else {
      terminal = nil
    }

    let plan = Plan(
      settings: settings, minimumDots: minimumDots, started: started, enrolling: enrolling, enrollsFirst: enrollsFirst,
      kiosk: terminalKiosk, door: door, actions: actions)
    let ending = try lockOnDisplay(settings, plan, judge: &judge)
    // The lock's VT goes back to VT_AUTO only now, after the display and the console.
    _ = consume terminal
    return ending
  }

  /// Chooses the display back-end and runs the lock on it.
  private static func lockOnDisplay(_ settings: RunSettings, _ plan: Plan, judge: inout RunJudge) throws(CommandFailure) -> Ending {
    // The display back-end is chosen here, and only here (docs/architecture.md,
    // "Adding a back-end"): each choice specialises the lock for its display type and
    // pixel format. An fbdev device when one is named, else KMS in the format it chose
    // (waiting display-wait-s for it to appear), else (no DRM display at all) /dev/fb0
    // when there is one.
    if let path = settings.kms.devicePath, FBDevLayout.isFramebufferPath(path) {
      return try lockOnFBDev(path, plan, judge: &judge)
    }
    let kms: KMSDisplay
    do throws(KMSError) {
      kms = try DisplayArrival.open(settings.kms, waitingUpTo: settings.displayWaitSeconds)
    } catch {
      if settings.kms.devicePath == nil, settings.kms.outputName == nil, DisplayArrival.isNotThereYet(error),
        FBDevLayout.exists(defaultFBDev)
      {
        Console.error(error.message + "; using \(defaultFBDev) instead")
        return try lockOnFBDev(defaultFBDev, plan, judge: &judge)
      }
      throw .display(error)
    }
    if kms.format == .rgb565 {
      var display = KMSOutput<RGB565>(kms: kms, monitor: try udevMonitor())
      return try lock(on: &display, plan, judge: &judge)
    }
    var display = KMSOutput<XRGB8888>(kms: kms, monitor: try udevMonitor())
    return try lock(on: &display, plan, judge: &judge)
  }

  /// What the lock needs besides the display and the judge.
  private struct Plan {
    var settings: RunSettings
    var minimumDots: Int
    var started: UInt64?
    var enrolling: Bool
    var enrollsFirst: Bool
    /// The kiosk an unlock switches to, from the lock's own VT.
    var kiosk: TerminalKiosk?
    /// The door's contact and exit button.
    var door: DoorWatch
    /// The hooks and the strike (a remote unlock releases it too).
    var actions: UnlockActions
  }

  /// The fbdev device used when there is no DRM display.
  package static let defaultFBDev = "/dev/fb0"

  /// The lock on an fbdev device, in its own format (RGB565 or XRGB8888).
  private static func lockOnFBDev(_ path: String, _ plan: Plan, judge: inout RunJudge) throws(CommandFailure) -> Ending {
    let opened: FBDevLayout.Opened
    do throws(FBDevError) {
      opened = try FBDevLayout.open(path)
    } catch {
      throw .framebuffer(error)
    }
    guard let format = opened.format else {
      throw .framebuffer(.unsupportedLayout(path: path, layout: FBDevLayout.describe(opened.info)))
    }
    if let requested = plan.settings.format, requested != format {
      throw .framebuffer(.formatMismatch(path: path, device: format.name, requested: requested.name))
    }
    if format == .rgb565 {
      var display = try fbdev(RGB565.self, opened)
      return try lock(on: &display, plan, judge: &judge)
    }
    var display = try fbdev(XRGB8888.self, opened)
    return try lock(on: &display, plan, judge: &judge)
  }

  private static func fbdev<Pixel: PixelStorage>(
    _: Pixel.Type, _ opened: consuming FBDevLayout.Opened
  ) throws(CommandFailure) -> FBDevDisplay<Pixel> {
    do throws(FBDevError) {
      return try FBDevDisplay<Pixel>(opened)
    } catch {
      throw .framebuffer(error)
    }
  }

  /// The lock on a display that has been taken: layout, input, console, the loop.
  private static func lock<D: LockDisplay & ~Copyable>(
    on display: inout D, _ plan: Plan, judge: inout RunJudge
  ) throws(CommandFailure) -> Ending {
    let (settings, minimumDots, started, enrolling, enrollsFirst) =
      (plan.settings, plan.minimumDots, plan.started, plan.enrolling, plan.enrollsFirst)
    let configuration = settings.screen
    var options = configuration.layout
    options.panelWidth = display.width
    options.panelHeight = display.height
    options.rotation = combine(display.panelRotation, configuration.layout.rotation)
    options.dotsPerInch =
      configuration.layout.dotsPerInch
      ?? LayoutOptions.dotsPerInch(pixels: display.width, millimetres: display.widthMillimetres)
    let (layout, text) = try layOut(options, configuration, on: "display \(display.summary)")
    if let expected = settings.expected, (0..<expected.count).contains(where: { expected[$0] > layout.dotCount }) {
      throw .usage(UsageError("--pattern uses a dot beyond \(layout.dotCount), the last dot of a \(layout.gridSize)x\(layout.gridSize) grid"))
    }

    var input: InputContext
    do throws(InputError) {
      input = try InputContext(seat: settings.seat, transform: layout.transform, calibration: settings.calibration)
    } catch {
      throw .input(error)
    }
    var loop = try makeLoop()
    loop.printTiming = settings.timing
    loop.lockTerminal = plan.kiosk?.lockTerminal.control
    loop.startMicroseconds = started
    loop.door = plan.door
    if !enrolling && !enrollsFirst { loop.events = try eventLink(settings.all, actions: plan.actions) }
    let console = ConsoleMode()
    Console.out("patternlock: showing the lock on \(display.summary)")

    let screens = RunScreens(configuration: configuration, layout: layout, text: text)
    var screen = screens.screen(
      D.Pixel.self, minimumDots: minimumDots,
      prompt: enrolling || enrollsFirst ? EnrollmentGate.startPrompt : PromptText.drawPattern)
    let now = MonotonicClock.microseconds()
    if let lockout = judge.lockoutAtStart(now: now) { screen.startLockedOut(lockout, now: now) }
    var ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    if enrollsFirst, case .unlocked = ending {
      // The new pattern is stored; the lock now runs with it on the same display (an
      // enrolment is never an unlock: exit 0 would open what waits for run).
      var gate: VaultGate
      do throws(VaultError) {
        gate = try VaultGate(
          justEnrolledIn: settings.stateDirectory ?? StateDirectory.defaultPath, throttle: settings.throttle, tcti: settings.all.tpmTCTI,
          patternGuard: PatternGuard(blocklistSize: settings.all.blocklistSize))
      } catch {
        throw .vault(error)
      }
      gate.actions = try makeActions(settings.all)
      gate.defersJudging = true
      screen = screens.screen(D.Pixel.self, minimumDots: gate.minimumDotsToCheck, prompt: PromptText.drawPattern)
      judge = .vault(gate)
      loop.events = try eventLink(settings.all, actions: plan.actions)
      ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    }
    var kiosk = plan.kiosk
    ending = try relockOverKiosk(
      after: ending, kiosk: &kiosk, screens: screens, minimumDots: minimumDots, loop: &loop, display: &display,
      input: &input, judge: &judge)
    _ = console.isActive
    // Thrown failures leave through the owners' deinits, which restore the CRTC and
    // the console.
    switch ending {
    case .unlocked:
      if !enrolling { Console.out("unlocked") }
      return .exit(.success)
    case .power(let action):
      return .power(action)
    case .signal(let signal):
      // Never 0: a unit that treats success as "unlocked" must not open on a kill.
      Console.out("patternlock: stopped by signal \(signal); display and console restored")
      return .exit(.failure)
    case .display(let error): throw D.commandFailure(error)
    case .input(let error): throw .input(error)
    case .failed(let error): throw .loop(error)
    }
  }

  /// With a kiosk, an unlock shows it and the lock comes back over it in this process
  /// (the kiosk keeps running behind the lock), as often as the kiosk's stay ends in a
  /// relock. Every lock shown again is made by `screens`, as the first was.
  ///
  /// - Returns: how the last lock (or the last stay in the kiosk) ended.
  package static func relockOverKiosk<D: LockDisplay & ~Copyable, I: InputSource & ~Copyable, K: KioskStay>(
    after first: LoopEnding<D.Failure, I.Failure>, kiosk: inout K?, screens: RunScreens, minimumDots: Int,
    loop: inout EventLoop, display: inout D, input: inout I, judge: inout RunJudge
  ) throws(CommandFailure) -> LoopEnding<D.Failure, I.Failure> {
    var ending = first
    while kiosk != nil, case .unlocked = ending {
      Console.out("unlocked")
      switch kiosk!.stay(loop: &loop, display: &display, input: &input) {
      case .signal(let signal): ending = .signal(signal)
      case .failed(let failure): throw .kiosk(failure)
      case .relock:
        var screen = screens.screen(
          D.Pixel.self, minimumDots: judge.minimumDots(otherwise: minimumDots), prompt: PromptText.drawPattern)
        ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
      }
    }
    return ending
  }

  /// The link to the event socket, for a lock that judges (never an enrolment).
  package static func eventLink(_ settings: Settings, actions: UnlockActions) throws(CommandFailure) -> EventLink {
    do throws(Errno) {
      let link = try EventLink(settings, actions: actions)
      link.carryAuditEntries()
      return link
    } catch {
      throw .loop(.cannotCreate("the event socket's link", error))
    }
  }

  /// The hooks and the door strike, checked before anything on screen changes.
  package static func makeActions(_ settings: Settings) throws(CommandFailure) -> UnlockActions {
    do throws(ActionsError) {
      return try UnlockActions(settings)
    } catch {
      throw .actions(error)
    }
  }

  /// The grid and the screen's text for `options` on `surface` (named in the error), the
  /// font loaded (a font that fails is said, and the lock shown without text), for run
  /// and session-lock.
  package static func layOut(
    _ options: LayoutOptions, _ configuration: ScreenConfiguration, on surface: String
  ) throws(CommandFailure) -> (GridLayout, ScreenText) {
    do throws(LayoutError) {
      return try ScreenText.layOut(
        options, message: configuration.message, fontPath: configuration.fontPath ?? FontLoader.defaultFontPath,
        language: configuration.language, loadingFont: true,
        fontFailure: { Console.error($0.message + ($0.isLanguageFallback ? "" : "; showing the lock without text")) })
    } catch {
      throw .usage(UsageError(error.message + " (\(surface))"))
    }
  }

  /// The lock's one loop (its signalfd and timerfd), for run and session-lock.
  package static func makeLoop() throws(CommandFailure) -> EventLoop {
    do throws(LoopFailure) {
      return try EventLoop()
    } catch {
      throw .loop(error)
    }
  }

  /// The udev monitor that reports the KMS display's hotplugs.
  package static func udevMonitor() throws(CommandFailure) -> UdevMonitor {
    do throws(InputError) {
      return try UdevMonitor(subsystem: "drm")
    } catch {
      throw .input(error)
    }
  }

  /// The panel's mounting and the user's turn, added.
  package static func combine(_ a: Rotation, _ b: Rotation) -> Rotation {
    Rotation(degrees: (a.degrees + b.degrees) % 360) ?? .none
  }
}
