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
  static func run(_ arguments: inout Arguments, started: UInt64? = nil) -> ExitStatus {
    var handOff: [String] = []
    let status = lock(&arguments, started: started, handOff: &handOff, enrolling: false)
    guard status == .success, !handOff.isEmpty else { return status }
    HandOff.exec(handOff)
  }

  /// `patternlock enroll`: the same screen and input, but the pattern is drawn twice
  /// and stored (`EnrollmentGate`); exits 0 once it is saved.
  static func enroll(_ arguments: inout Arguments) -> ExitStatus {
    var handOff: [String] = []
    return lock(&arguments, started: nil, handOff: &handOff, enrolling: true)
  }

  /// The lock itself; every owner it makes restores what it changed when it returns.
  private static func lock(_ arguments: inout Arguments, started: UInt64?, handOff: inout [String], enrolling: Bool) -> ExitStatus {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory()
    let command = enrolling ? "enroll" : "run"
    var layoutArguments = LayoutArguments()
    var kms = KMSOptions()
    // For testing the fallback on atomic drivers (documented in patternlock(1)).
    kms.forceLegacy = pl_getenv("PATTERNLOCK_KMS_LEGACY").map { String(cString: $0) } == "1"
    var seat = "seat0"
    var calibration: CalibrationMatrix?
    var expected: DotSequence?
    var stateDirectory: String?
    var throttle = ThrottleTable.android
    var timing = false
    var rotation = Rotation.none
    var dpi: Int?
    var fontPath = FontLoader.defaultFontPath
    var theme = Theme()
    var feedbackMilliseconds = 500
    var idleBlankSeconds = 0
    var minimumDotsToEnroll = 4
    var hashCost = HashCost.standard
    var enrollFirst = false
    applyConfiguration(&arguments, layout: &layoutArguments, kms: &kms, seat: &seat, calibration: &calibration,
      rotation: &rotation, dpi: &dpi, fontPath: &fontPath, theme: &theme,
      feedbackMilliseconds: &feedbackMilliseconds, stateDirectory: &stateDirectory, throttle: &throttle, exec: &handOff,
      idleBlankSeconds: &idleBlankSeconds, minimumDots: &minimumDotsToEnroll, hashCost: &hashCost, enrollFirst: &enrollFirst)
    while let argument = arguments.next() {
      let (name, inline) = Arguments.split(argument)
      switch name {
      case "--device": kms.devicePath = arguments.value(for: name, inline: inline)
      case "--output": kms.outputName = arguments.value(for: name, inline: inline)
      case "--mode":
        let text = arguments.value(for: name, inline: inline)
        guard let mode = ModeRequest(parsing: text) else {
          Console.fail("--mode takes WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480 or 1920x1080@60, not '\(text)'")
        }
        kms.mode = mode
      case "--seat": seat = arguments.value(for: name, inline: inline)
      case "--calibration":
        do throws(InputError) {
          calibration = try CalibrationMatrix(parsing: arguments.value(for: name, inline: inline))
        } catch {
          Console.fail(error.message)
        }
      case "--pattern": expected = parsePattern(arguments.value(for: name, inline: inline))
      case "--state-dir": stateDirectory = arguments.value(for: name, inline: inline)
      case "--timing": timing = true
      case "--min-dots":
        // run: only used when --enroll-first enrols.
        minimumDotsToEnroll = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      case "--enroll-first" where !enrolling: enrollFirst = true
      case "--idle-blank-s":
        idleBlankSeconds = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
        guard (0...86_400).contains(idleBlankSeconds) else {
          Console.fail("--idle-blank-s takes 0 to 86400 seconds (0 never blanks), not \(idleBlankSeconds)")
        }
      case "--exec":
        // Everything after --exec is the command and its arguments.
        handOff = []
        while let word = arguments.next() { handOff.append(word) }
        HandOff.validate(handOff)
      case "--feedback-ms": feedbackMilliseconds = feedbackTime(arguments.value(for: name, inline: inline), option: name)
      case "--font": fontPath = arguments.value(for: name, inline: inline)
      case "--stealth": theme.stealth = true
      case "--rotate": rotation = OptionValue.rotation(arguments.value(for: name, inline: inline), option: name)
      case "--dpi": dpi = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      case "--size": Console.fail("run: --size is not used: the display's mode sets the size (use --mode WxH)")
      default:
        guard layoutArguments.parse(name, inline: inline, from: &arguments) else {
          Console.fail("\(command): unknown option '\(argument)' (try 'patternlock --help')")
        }
      }
    }

    // The secret first: without one there is nothing to lock with, and nothing on
    // the display or console has been changed yet when that is said.
    var judge = RunJudge()
    var minimumDots = 4
    let statePath = stateDirectory ?? StateDirectory.defaultPath
    // run --enroll-first with no pattern at all enrols first, then locks with it.
    let enrollsFirst = !enrolling && expected == nil && enrollFirst && VaultGate.hasNoPattern(statePath)
    if enrolling || enrollsFirst {
      if enrolling && (expected != nil || !handOff.isEmpty) { Console.fail("enroll: --pattern and --exec belong to run") }
      let grid = layoutArguments.options.gridSize
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

    var options = layoutArguments.options
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

  /// `1-2-3-6` as dots; development only, until the secure store replaces it.
  static func parsePattern(_ text: String) -> DotSequence {
    var dots: [Int] = []
    for part in text.split(separator: "-", omittingEmptySubsequences: false) {
      guard let n = OptionValue.integer(String(part)), n >= 1, n <= GridLayout.maximumDots, !dots.contains(n) else {
        Console.fail("--pattern takes distinct dot numbers joined by '-', such as 1-2-3-6, not '\(text)'")
      }
      dots.append(n)
    }
    return DotSequence(dots)
  }

  /// `--feedback-ms`: how long a verdict stays on screen, 0 to 10000 ms (the range
  /// patternlock.conf's feedback-ms allows).
  static func feedbackTime(_ text: String, option: String) -> Int {
    let ms = OptionValue.integer(text, option: option)
    guard ms >= 0 && ms <= 10_000 else { Console.fail("\(option) takes milliseconds from 0 to 10000, not '\(text)'") }
    return ms
  }

  /// The panel's mounting and the user's turn, added.
  static func combine(_ a: Rotation, _ b: Rotation) -> Rotation {
    Rotation(degrees: (a.degrees + b.degrees) % 360) ?? .none
  }

  static let help = """
      --device PATH     the DRM card (default: the first /dev/dri/card* with a connected display)
      --output NAME     the connector, such as HDMI-A-1 or DSI-1 (default: the first connected)
      --mode WxH[@HZ]   the display mode (default: the preferred mode)
      --rotate DEG      turn the view 0, 90, 180 or 270 degrees clockwise, added to the panel's orientation
      --dpi D           pixels per inch (default: from the display's physical size)
      --grid N          dots per side, 3 to 7 (default 3)
      --seat NAME       the libinput seat (default seat0)
      --calibration "a b c d e f"  touchscreen calibration matrix (as LIBINPUT_CALIBRATION_MATRIX)
      --pattern 1-2-3-6 DEVELOPMENT ONLY: the pattern that unlocks (plain text on the command line)
      --timing          print start-to-first-flip and input-to-flip times
      --idle-blank-s S  switch the display off after S seconds without input; a touch wakes it (0: never)
      --exec CMD ARG... after unlocking, replace patternlock with CMD (an absolute path); must be last
      --feedback-ms MS  how long a verdict stays on screen, 0 to 10000 (default 500)
      --font PATH       the prompt's font (default DejaVu Sans)
      --stealth         hide the line and the joined dots while drawing
      --enroll-first    with no pattern set, show the enrolment screen first, then lock with the new pattern
      --min-dots N      with --enroll-first, the fewest dots the new pattern may have (default 4)
    """
}
