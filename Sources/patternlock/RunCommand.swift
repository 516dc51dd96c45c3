import CShim
import Configuration
import Input
import KMS
import PatternCore
import Raster
import Scene
import Screen
import Typeface
import Vault

/// `patternlock run`: the lock screen on the real display with live input.
///
/// Order matters for the messages: the display is taken first (no DRM device is the
/// commonest problem on a development machine, and the message points to the
/// emulated board), then input, then the console is switched to graphics. Every
/// owner (`KMSDisplay`, `InputContext`, `ConsoleMode`, `EventLoop`) restores what it
/// changed in its `deinit`, so SIGINT, SIGTERM, an unlock and a failure all leave the
/// CRTC and the VT as they were.
enum RunCommand {
  /// Runs the lock; after an unlock, replaces the process with the `--exec` command
  /// (or the configuration's `exec`) once the display and console are restored.
  ///
  /// - Parameter started: when the process entered `main` (CLOCK_MONOTONIC µs), the
  ///   origin of `--timing`'s start-to-first-flip figure.
  /// - Returns: the exit status (when there is nothing to hand over to).
  static func run(_ arguments: [String], started: UInt64? = nil) -> ExitStatus {
    var handOff: [String] = []
    let status = lock(arguments, started: started, handOff: &handOff, enrolling: false)
    guard status == .success, !handOff.isEmpty else { return status }
    HandOff.exec(handOff)
  }

  /// `patternlock enroll`: the same screen and input, but the pattern is drawn twice
  /// and stored (`EnrollmentGate`); exits 0 once it is saved.
  static func enroll(_ arguments: [String]) -> ExitStatus {
    var handOff: [String] = []
    return lock(arguments, started: nil, handOff: &handOff, enrolling: true)
  }

  /// The lock itself; every owner it makes restores what it changed when it returns.
  private static func lock(_ arguments: [String], started: UInt64?, handOff: inout [String], enrolling: Bool) -> ExitStatus {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory()
    let command = enrolling ? "enroll" : "run"
    let settings: RunSettings
    do throws(UsageError) {
      settings = try RunSettings(arguments, enrolling: enrolling)
    } catch {
      Console.error(error.message)
      return .badInput
    }
    let layoutOptions = settings.layoutOptions
    let kms = settings.kms
    let seat = settings.seat
    let calibration = settings.calibration
    let expected = settings.expected
    let stateDirectory = settings.stateDirectory
    let throttle = settings.throttle
    let timing = settings.timing
    let rotation = settings.rotation
    let dpi = settings.dpi
    let fontPath = settings.fontPath
    let theme = settings.theme
    let feedbackMilliseconds = settings.feedbackMilliseconds
    let idleBlankSeconds = settings.idleBlankSeconds
    let minimumDotsToEnroll = settings.minimumDotsToEnroll
    let hashCost = settings.hashCost
    let enrollFirst = settings.enrollFirst
    handOff = settings.exec

    // The secret first: without one there is nothing to lock with, and nothing on
    // the display or console has been changed yet when that is said.
    var judge = RunJudge()
    var minimumDots = 4
    let statePath = stateDirectory ?? StateDirectory.defaultPath
    // run --enroll-first with no pattern at all enrols first, then locks with it.
    let enrollsFirst = !enrolling && expected == nil && enrollFirst && VaultGate.hasNoPattern(statePath)
    if enrolling || enrollsFirst {
      if enrolling && (expected != nil || !handOff.isEmpty) { Console.fail("enroll: --pattern and --exec belong to run") }
      let grid = layoutOptions.gridSize
      guard minimumDotsToEnroll >= 1 && minimumDotsToEnroll <= grid * grid else {
        Console.fail("\(command): --min-dots takes 1 to \(grid * grid) for a \(grid)x\(grid) grid, not \(minimumDotsToEnroll)")
      }
      judge.enrolment = EnrollmentGate(stateDirectory: statePath, gridSize: grid, minimumDots: minimumDotsToEnroll, cost: hashCost)
      minimumDots = minimumDotsToEnroll
      if enrollsFirst { Console.error("no pattern is set in \(statePath): enrolling one first (enroll-first)") }
    } else if let expected {
      judge.development = DevelopmentJudge(expected: expected, minimumDots: minimumDots, matchUnlocks: true)
    } else {
      judge.vault = VaultGate(stateDirectory: statePath, throttle: throttle)
      minimumDots = judge.vault!.minimumDotsToCheck()
    }

    var display = openDisplay(kms)

    var options = layoutOptions
    options.panelWidth = display.width
    options.panelHeight = display.height
    options.rotation = combine(display.kms.panelOrientation.rotation, rotation)
    options.dotsPerInch = dpi ?? LayoutOptions.dotsPerInch(pixels: display.width, millimetres: display.kms.millimetres.width)
    let layout: GridLayout
    do throws(LayoutError) {
      layout = try GridLayout(options)
    } catch {
      Console.fail(error.message + " (display \(display.kms.outputName) is \(display.kms.mode.text))")
    }
    if let expected, (0..<expected.count).contains(where: { expected[$0] > layout.dotCount }) {
      Console.fail("--pattern uses a dot beyond \(layout.dotCount), the last dot of a \(layout.gridSize)x\(layout.gridSize) grid")
    }

    var input = openInput(seat: seat, transform: layout.transform, calibration: calibration)
    var loop = makeLoop()
    loop.printTiming = timing
    loop.startMicroseconds = started
    let console = ConsoleMode()
    Console.out("patternlock: showing the lock on \(display.kms.outputName) (\(display.kms.mode.text)) of \(display.kms.path) (\(display.kms.usesAtomic ? "atomic" : "legacy"))")

    let atlas = loadFont(fontPath, layout: layout)
    let feedback = UInt64(feedbackMilliseconds) * 1000
    let idleBlank = idleBlankSeconds > 0 ? UInt64(idleBlankSeconds) * 1_000_000 : nil
    var screen = LockScreen<XRGB8888>(
      layout: layout, theme: theme, atlas: atlas, minimumDots: minimumDots, feedbackMicroseconds: feedback,
      idleBlankMicroseconds: idleBlank,
      prompt: enrolling || enrollsFirst ? EnrollmentGate.startPrompt : PromptText.drawPattern)
    let now = pl_monotonic_microseconds()
    if judge.vault != nil, let lockout = judge.vault!.lockoutAtStart(now: now) { screen.startLockedOut(lockout, now: now) }
    var ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    if enrollsFirst, case .unlocked = ending {
      // The new pattern is stored; the lock now runs with it on the same display (an
      // enrolment is never an unlock: exit 0 would open what waits for run).
      judge.enrolment = nil
      do throws(VaultError) {
        judge.vault = try VaultGate(justEnrolledIn: statePath, throttle: throttle)
      } catch {
        Console.error(error.message)
        return .failure
      }
      screen = LockScreen<XRGB8888>(
        layout: layout, theme: theme, atlas: atlas, minimumDots: judge.vault!.minimumDotsToCheck(), feedbackMicroseconds: feedback,
        idleBlankMicroseconds: idleBlank, prompt: PromptText.drawPattern)
      ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    }
    _ = console.isActive
    switch ending {
    case .unlocked:
      if !enrolling { Console.out("unlocked") }
    case .signal(let signal):
      // Never 0: a unit that treats success as "unlocked" must not open on a kill.
      Console.out("patternlock: stopped by signal \(signal); display and console restored")
      return .failure
    case .display(let error):
      // Owners restore the CRTC and the console as they go out of scope.
      Console.error(error.message)
      return .failure
    case .input(let error):
      Console.error(error.message)
      return .failure
    case .failed(let error):
      Console.error(error.message)
      return .failure
    }
    return .success
  }

  // Each step that can fail at start-up reports and exits; nothing has been changed
  // on the display or console yet when they run, except by the owners already made,
  // whose deinit is skipped by exit — so the display is opened first and the console
  // is switched last, after everything that can fail.

  /// The prompt's glyphs; a missing font is said once and the lock runs without text.
  static func loadFont(_ path: String, layout: GridLayout) -> GlyphAtlas? {
    do throws(TypefaceError) {
      return try FontLoader.loadAtlas(path: path, pixelSize: layout.fontPixels)
    } catch {
      Console.error(error.message + "; showing the lock without text")
      return nil
    }
  }

  static func openDisplay(_ options: KMSOptions) -> KMSOutput {
    let kms: KMSDisplay
    do throws(KMSError) {
      kms = try KMSDisplay(options: options)
    } catch {
      Console.error(error.message)
      pl_exit(ExitStatus.failure.rawValue)
    }
    return KMSOutput(kms: kms, monitor: openHotplugMonitor())
  }

  static func openInput(seat: String, transform: ViewTransform, calibration: CalibrationMatrix?) -> InputContext {
    do throws(InputError) {
      return try InputContext(seat: seat, transform: transform, calibration: calibration)
    } catch {
      Console.error(error.message)
      pl_exit(ExitStatus.failure.rawValue)
    }
  }

  static func openHotplugMonitor() -> UdevMonitor {
    do throws(InputError) {
      return try UdevMonitor(subsystem: "drm")
    } catch {
      Console.error(error.message)
      pl_exit(ExitStatus.failure.rawValue)
    }
  }

  static func makeLoop() -> EventLoop {
    do throws(LoopFailure) {
      return try EventLoop()
    } catch {
      Console.error(error.message)
      pl_exit(ExitStatus.failure.rawValue)
    }
  }

  /// The panel's mounting and the user's turn, added.
  static func combine(_ a: Rotation, _ b: Rotation) -> Rotation {
    Rotation(degrees: (a.degrees + b.degrees) % 360) ?? .none
  }
}
