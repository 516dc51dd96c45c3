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

/// The lock's lifetime once its display is taken: laid out for it, its input, the
/// console and the loop, the lock shown until it ends (again over the kiosk after each
/// unlock that shows it), and what it is told besides the display and the judge.
extension RunCommand {
  /// What the lock needs besides the display and the judge.
  struct Plan {
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
    /// `run --headless`: the lock asks itself to stop once its first frame is shown.
    var stopsAfterFirstFrame = false
    /// plymouth shows a boot splash (`BootSplash`): it is asked to let go of the display
    /// once the lock's first picture is ready, and to end, keeping the picture, once
    /// that picture is up.
    var handsOverFromSplash = false
    /// `password-agent`: the lock answers a password request. Its end is no unlock: no
    /// event socket is told of it, and "unlocked" is not said.
    var answersPasswordRequest = false
  }

  /// The lock on a display that has been taken: layout, input, console, the loop.
  static func lock<D: Display & ~Copyable>(
    on display: inout D, _ plan: Plan, console: inout LockConsole, judge: inout RunJudge
  ) throws(CommandFailure) -> Ending {
    let (settings, minimumDots, enrolling, enrollsFirst) = (plan.settings, plan.minimumDots, plan.enrolling, plan.enrollsFirst)
    let configuration = settings.screen
    let now = MonotonicClock.microseconds()
    let lockout = judge.lockoutAtStart(now: now)
    let prompt = enrolling || enrollsFirst ? EnrollmentGate.startPrompt : PromptText.drawPattern
    let (layout, text, completion) = try layOut(
      plan, panel: PanelFacts(
        width: display.width, height: display.height, rotation: display.panelRotation,
        widthMillimetres: display.widthMillimetres, summary: display.summary),
      firstScreen: lockout == nil ? prompt : nil)

    var input = try makeInput(settings, layout: layout)
    var loop = try makeLoop(plan, console: console, completion: completion)
    console.showGraphics()
    // The console's text comes back while the display is still the lock's, whatever
    // way this ends.
    defer { console.showText() }
    Console.out("patternlock: showing the lock on \(display.summary)")

    let screens = RunScreens(configuration: configuration, layout: layout, text: text, completion: completion)
    var screen = screens.screen(D.Pixel.self, minimumDots: minimumDots, prompt: prompt)
    if let lockout { screen.startLockedOut(lockout, now: now) }
    var ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    if enrollsFirst, case .unlocked = ending {
      // The new pattern is stored; the lock now runs with it on the same display (an
      // enrolment is never an unlock: exit 0 would open what waits for run).
      let gate = try justEnrolledGate(settings)
      screen = screens.screen(D.Pixel.self, minimumDots: gate.minimumDotsToCheck, prompt: PromptText.drawPattern)
      judge = .vault(gate)
      loop.events = try eventLink(settings.all, actions: plan.actions)
      ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    }
    var kiosk = plan.kiosk
    ending = try relockOverKiosk(
      after: ending, kiosk: &kiosk, screens: screens, minimumDots: minimumDots, loop: &loop, display: &display,
      input: &input, judge: &judge)
    // Thrown failures leave through the owners' deinits, which restore the CRTC and
    // the console.
    switch ending {
    case .unlocked:
      if !enrolling && !plan.answersPasswordRequest { Console.out("unlocked") }
      return .exit(.success)
    case .power(let action):
      return .power(action)
    case .signal(let signal):
      // Never 0: a unit that treats success as "unlocked" must not open on a kill.
      Console.out("patternlock: stopped by signal \(signal); display and console restored")
      return .exit(.failure)
    case .display(let error): throw .displayFailed(message: error.message)
    case .input(let error): throw .input(error)
    case .failed(let error): throw .loop(error)
    }
  }

  // The parts of `lock(on:)` that do not depend on the display, outside it: each
  // display type gets a copy of that generic function in the binary.

  /// The seat's input. Its devices are opened before the first frame, not after: a
  /// lock on screen takes a touch at once (opened after the frame, the touches of the
  /// moments between were lost), although opening them, libinput's quirks files and
  /// every device's udev properties, is a fifth of the start's instructions.
  static func makeInput(_ settings: RunSettings, layout: GridLayout) throws(CommandFailure) -> InputContext {
    try lifting(CommandFailure.input) { () throws(InputError) in
      try InputContext(seat: settings.seat, transform: layout.transform, calibration: settings.calibration)
    }
  }

  /// The loop with what the lock tells it: timing, the VT, the start, the glyphs left
  /// for after the first frame, the door and (unless enrolling) the event socket.
  static func makeLoop(_ plan: Plan, console: borrowing LockConsole, completion: GlyphCompletion?) throws(CommandFailure) -> EventLoop {
    let settings = plan.settings
    var loop = try LockStartKit.makeLoop()
    loop.printTiming = settings.all.printsTiming
    loop.readyAtFirstFrame = !plan.answersPasswordRequest
    loop.lockTerminal = console.lent?.control
    loop.startMicroseconds = plan.started
    let stops = plan.stopsAfterFirstFrame
    let quitsSplash = plan.handsOverFromSplash
    if completion != nil || stops || quitsSplash {
      loop.afterFirstFrame = { renderer in
        // The stop first: the start measured ends at the first frame.
        if stops { CurrentProcess.askToStop() }
        if quitsSplash { sayHandOver(BootSplash.quitRetainingSplash(), done: "plymouth ended, the lock's picture kept") }
        completion?.complete(renderer)
      }
    }
    loop.door = plan.door
    if !plan.enrolling && !plan.enrollsFirst && !plan.answersPasswordRequest {
      loop.events = try eventLink(settings.all, actions: plan.actions)
    }
    return loop
  }

  /// Asks the boot splash to let go of the display and the terminal, right before the
  /// lock takes them.
  ///
  /// - Parameter terminal: the lock's own VT (with a kiosk), which plymouth puts back in
  ///   VT_AUTO as it lets go: held in VT_PROCESS again, or the kiosk's switches would
  ///   go unasked (`LockTerminal`).
  static func letSplashGo(terminal: TerminalControl?) {
    sayHandOver(BootSplash.deactivate(), done: "plymouth's boot splash let go of the display for the lock")
    if let terminal, (try? terminal.setSwitching(.process)) == nil {
      Console.error("cannot hold the lock's VT in VT_PROCESS mode again after the boot splash; a switch to the kiosk may go unasked")
    }
  }

  /// Says what the boot splash's hand-over came to; nothing when there is no splash.
  ///
  /// - Returns: whether plymouth did what it was asked.
  @discardableResult
  static func sayHandOver(_ outcome: BootSplash.Outcome, done: String) -> Bool {
    switch outcome {
    case .done:
      Console.out("patternlock: " + done)
      return true
    case .noSplash:
      return false
    case .failed(let why):
      Console.error("boot splash: \(why); the lock goes on without it")
      return false
    }
  }

  /// The vault of the pattern `run --enroll-first` has just stored, judging from now on.
  static func justEnrolledGate(_ settings: RunSettings) throws(CommandFailure) -> VaultGate {
    var gate: VaultGate
    do throws(VaultError) {
      gate = try VaultGate(
        justEnrolledIn: settings.all.stateDirectory ?? StateDirectory.defaultPath, throttle: settings.all.throttle, tcti: settings.all.tpmTCTI,
        patternGuard: PatternGuard(blocklistSize: settings.all.blocklistSize))
    } catch {
      throw .vault(error)
    }
    gate.actions = try LockStartKit.makeActions(settings.all)
    gate.defersJudging = true
    return gate
  }

  /// What the layout takes from the display.
  struct PanelFacts {
    var width: Int, height: Int
    var rotation: Rotation
    var widthMillimetres: Int
    var summary: String
  }

  /// The layout and text for `panel`: with `firstScreen` (nil when a lockout's countdown
  /// comes first) only its glyphs, the rest left to the returned completion. Not generic
  /// over the display, so each display's specialisation of `lock(on:)` does not carry it.
  static func layOut(
    _ plan: Plan, panel: PanelFacts, firstScreen: PromptText?
  ) throws(CommandFailure) -> (GridLayout, ScreenText, GlyphCompletion?) {
    let settings = plan.settings
    let configuration = settings.screen
    var options = configuration.layout
    options.panelWidth = panel.width
    options.panelHeight = panel.height
    options.rotation = combine(panel.rotation, configuration.layout.rotation)
    options.dotsPerInch =
      configuration.layout.dotsPerInch ?? LayoutOptions.dotsPerInch(pixels: panel.width, millimetres: panel.widthMillimetres)
    let (layout, text, completion): (GridLayout, ScreenText, GlyphCompletion?)
    if let firstScreen {
      (layout, text, completion) = try LockStartKit.layOut(options, configuration, on: "display \(panel.summary)", firstScreen: firstScreen)
    } else {
      (layout, text) = try LockStartKit.layOut(options, configuration, on: "display \(panel.summary)")
      completion = nil
    }
    if let expected = settings.all.pattern, (0..<expected.count).contains(where: { expected[$0] > layout.dotCount }) {
      throw .usage(UsageError("--pattern uses a dot beyond \(layout.dotCount), the last dot of a \(layout.gridSize)x\(layout.gridSize) grid"))
    }
    return (layout, text, completion)
  }

  /// With a kiosk, an unlock shows it and the lock comes back over it in this process
  /// (the kiosk keeps running behind the lock), as often as the kiosk's stay ends in a
  /// relock. Every lock shown again is made by `screens`, as the first was.
  ///
  /// - Returns: how the last lock (or the last stay in the kiosk) ended.
  package static func relockOverKiosk<D: Display & ~Copyable, I: InputSource & ~Copyable, K: KioskStay>(
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
}
