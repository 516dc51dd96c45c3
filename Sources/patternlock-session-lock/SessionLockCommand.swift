import CommandKit
import Configuration
import LockProgram
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import Typeface
import Vault
import Wayland

/// `patternlock session-lock`: locks the running Wayland session through
/// ext-session-lock-v1 and exits 0 once the right pattern is drawn (the way swaylock
/// is started: from a key binding, an idle daemon, before suspend).
///
/// The lock runs as the desktop user and asks `patternlock judge` over its socket
/// (`judge-socket`); only with `--state-dir` given on its command line does it judge
/// in this process, with the same session as `check` (for a vault the user owns, and
/// the tests). The lock screen is `run`'s, made from the same settings; every output
/// shows it laid out for its own size and scale. The output a gesture starts on shows
/// the drawing (and keys draw on the output last touched, else the first); the others
/// show the prompt, the verdicts and the countdown without the pattern.
///
/// Never unlocked by mistake: only a verified pattern sends `unlock_and_destroy`;
/// a signal, a lost connection, a refused or ended lock (`finished`) or any failure
/// exits non-zero without it, and the compositor keeps the session locked until a new
/// `session-lock` takes it over.
enum SessionLockCommand {
  static func run(_ arguments: [String]) throws(SessionLockFailure) -> ExitStatus {
    let settings: Settings
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .sessionLock)
      try parsed.refuseOperands(.sessionLock)
      settings = parsed.settings
    } catch {
      throw .command(.usage(error))
    }
    VaultCommandSupport.protectSecretsInMemory()
    var minimumDots = settings.minimumDots
    var judge: RunJudge
    if settings.origins[.stateDir] == .commandLine {
      var gate: VaultGate
      do throws(VaultError) {
        gate = try VaultGate(
          stateDirectory: settings.stateDirectory ?? StateDirectory.defaultPath, throttle: settings.throttle, tcti: settings.tpmTCTI,
          patternGuard: PatternGuard(blocklistSize: settings.blocklistSize))
      } catch {
        throw .command(.vault(error))
      }
      minimumDots = gate.minimumDotsToCheck
      gate.defersJudging = true
      judge = .vault(gate)
    } else {
      do throws(Errno) {
        judge = .socket(try SocketJudge(path: settings.judgeSocket, minimumDots: minimumDots))
      } catch {
        throw .command(.loop(.cannotCreate("the judge's answer slot", error)))
      }
    }

    let configuration = ScreenConfiguration(settings)
    let displayName = CurrentProcess.environmentVariable("WAYLAND_DISPLAY")
    let connection: SessionLockConnection
    do throws(WaylandError) {
      connection = try SessionLockConnection(name: nil, displayLabel: displayName ?? "wayland-0 (WAYLAND_DISPLAY is not set)")
      // What an output shows until the lock is laid out for it.
      connection.background = XRGB8888.word(for: configuration.theme.backgroundBottom)
      try connection.lockSession()
      try connection.prepareFrames()
    } catch {
      throw .wayland(error)
    }
    var loop = try lifting(SessionLockFailure.command) { () throws(CommandFailure) in try LockStartKit.makeLoop() }
    loop.printTiming = settings.printsTiming
    var screen = try lockScreen(configuration, connection: connection, minimumDots: minimumDots, judge: &judge)
    // Outputs coming and going or changing size are the display's events: every output
    // is laid out again, locked all the while, and the lock screen keeps its state.
    var display: SessionLockDisplay<SessionLockLayouts>
    do throws(WaylandError) {
      display = try SessionLockDisplay(connection: connection, layouts: SessionLockLayouts(configuration: configuration), tracker: screen.renderer)
    } catch {
      throw .wayland(error)
    }
    var input = SessionLockInput(connection: connection)
    Console.out("patternlock: locking the session on \(display.summary)")
    let ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    switch ending {
    case .unlocked:
      do throws(WaylandError) {
        try connection.unlock()
      } catch {
        throw .wayland(error)
      }
      Console.out("unlocked")
      return .success
    case .power:
      // The timeout action and the power button are the console lock's (root's);
      // here they end nothing: the session stays locked.
      Console.error("session-lock: a power action was asked for; session-lock does not carry it out and leaves the session locked")
      return .failure
    case .signal(let signal):
      Console.out("patternlock: stopped by signal \(signal); the session stays locked until a new session-lock takes it over")
      return .failure
    case .display(let error), .input(let error): throw .wayland(error)
    case .failed(let error): throw .command(.loop(error))
    }
  }

  /// The lock screen laid out for the connection's frames, its input turned as the
  /// layout is, and (judging in process) the lockout in force now.
  private static func lockScreen(
    _ configuration: ScreenConfiguration, connection: SessionLockConnection, minimumDots: Int, judge: inout RunJudge
  ) throws(SessionLockFailure) -> LockScreen<XRGB8888> {
    var options = configuration.layout
    options.panelWidth = connection.frameWidth
    options.panelHeight = connection.frameHeight
    let (layout, text) = try lifting(SessionLockFailure.command) { () throws(CommandFailure) in
      try LockStartKit.layOut(options, configuration, on: "lock surface \(connection.frameWidth)x\(connection.frameHeight)")
    }
    let screens = RunScreens(configuration: configuration, layout: layout, text: text)
    var screen = screens.screen(XRGB8888.self, minimumDots: minimumDots, prompt: PromptText.drawPattern)
    let now = MonotonicClock.microseconds()
    if let lockout = judge.lockoutAtStart(now: now) { screen.startLockedOut(lockout, now: now) }
    return screen
  }
}

/// The lock laid out for one output's frames from `run`'s settings: the same grid,
/// theme, fonts and language on every output, each at its own size.
struct SessionLockLayouts: OutputLayouts {
  let configuration: ScreenConfiguration

  func renderer(width: Int, height: Int) throws(WaylandError) -> LockScreenRenderer {
    var options = configuration.layout
    options.panelWidth = width
    options.panelHeight = height
    do throws(CommandFailure) {
      let (layout, text) = try LockStartKit.layOut(options, configuration, on: "lock surface \(width)x\(height)")
      return LockScreenRenderer(layout: layout, configuration: configuration, text: text)
    } catch {
      throw .cannotLayOut(message: error.message)
    }
  }
}
