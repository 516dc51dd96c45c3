import CommandKit
import Configuration
import LockProgram
import PNGImage
import PatternCore
import Raster
import Recording
import Scene
import Screen
import SystemCalls
import Typeface

/// `patternlock replay FILE [layout options]`: replays a `libinput record` capture
/// through the gesture tracker and prints one JSON line per finished gesture,
/// `{"dots":[1,2,3,6],"result":"complete"}`, in the order the fingers lifted.
///
/// The whole file is parsed and converted before the first line is printed, so a
/// damaged capture gives one error line and exit status 2, never half an output.
///
/// Gestures go through the same lock-screen controller as on the device, so a
/// gesture begun while a verdict is still on screen (`--feedback-ms`, 0.5 s by default) is ignored here too.
/// With `--dump DIR` every picture the device would present is written as
/// `DIR/NNNNN.png`; `--contact-sheet FILE` puts them all on one image. With
/// `--state-dir DIR` the Vault judges instead (ReplayCommand+Policy.swift), and the
/// pictures are `run`'s for that secret: the same controller, verdicts and lockouts,
/// on the recording's clock.
enum ReplayCommand {
  /// What `replay` draws and writes, besides its JSON lines.
  struct FrameOptions {
    var dumpDirectory: String?
    var contactSheet: String?
    var format = PixelFormat.xrgb8888
    var expected: DotSequence?
    /// The screen as on the device; the timeout is shown and reported, never carried
    /// out. No idle blanking: idle-blank-s is the display's (run's), and a replay's
    /// pictures are the ones the screen draws.
    var screen: ScreenConfiguration
    /// --grid-seed: each play of a moving grid starts this sequence again, so the
    /// counting play and the drawing play, and every run, place the grid alike.
    var gridSeed: UInt64
    /// The message's wrapped lines and glyphs (and the language drawn) once laid out.
    var text: ScreenText
    var fontPath: String { screen.fontPath ?? FontLoader.defaultFontPath }

    /// What the command line and patternlock.conf asked for.
    init(_ settings: Settings) {
      dumpDirectory = settings.dumpDirectory
      contactSheet = settings.contactSheet
      format = settings.frameFormat ?? .xrgb8888
      expected = settings.pattern
      screen = ScreenConfiguration(settings)
      gridSeed = settings.gridSeed
      screen.idleBlankMicroseconds = nil
      // Nor dim: a dimmed frame's pixels are the same, and no backlight is replayed.
      screen.dimAfterMicroseconds = nil
      text = .none(screen.language)
    }

    var rendersFrames: Bool { dumpDirectory != nil || contactSheet != nil }
  }

  static func run(_ arguments: [String]) throws(RecordingFailure) -> ExitStatus {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory(lockingMemory: false)
    let settings: Settings
    let path: String
    let layout: GridLayout
    let stateDirectory: String?
    var frames: FrameOptions
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .replay)
      path = try parsed.onlyOperand(.replay, is: "recording file", usage: "patternlock replay FILE [--size WxH] [--rotate DEG] [--grid N]")
      settings = parsed.settings
      frames = FrameOptions(settings)
      // A message moves the grid, and so which dots a recording joins: it is laid
      // out (with the font) whether or not pictures are drawn.
      do throws(LayoutError) {
        (layout, frames.text) = try ScreenText.layOut(
          frames.screen.layout, message: frames.screen.message, fontPath: frames.fontPath,
          language: frames.screen.language, loadingFont: !frames.screen.message.isEmpty,
          fontFailure: { Console.error($0.message + ($0.isLanguageFallback ? "" : "; drawing no text")) })
      } catch {
        throw UsageError(error.message)
      }
      stateDirectory = try judgingDirectory(settings)
    } catch {
      throw .usage(error)
    }
    let device = deviceSelection(settings.recordedDevice)

    let events = try touchEvents(path, device: device, transform: layout.transform)

    if let stateDirectory {
      try runPolicy(events, layout: layout, frames: frames, stateDirectory: stateDirectory, throttle: settings.throttle)
      return .success
    }
    var judge = JudgementLog(DevelopmentJudge(expected: frames.expected, minimumDots: 4, matchUnlocks: false))
    try play(events, layout: layout, frames: frames, minimumDots: 4, judge: &judge)
    return .success
  }

  /// The vault that judges the replay: only one named by `--state-dir` on the command
  /// line, as a recording is judged against a real secret only when asked (the state
  /// directory of patternlock.conf is always set, at least by the package's defaults).
  static func judgingDirectory(_ settings: Settings) throws(UsageError) -> String? {
    guard settings.origins[.stateDir] == .commandLine, let directory = settings.stateDirectory else { return nil }
    if settings.pattern != nil {
      throw UsageError("replay: --pattern cannot be combined with --state-dir: the pattern that unlocks is the one set in \(directory) (drop --pattern, or drop --state-dir to compare with a plain pattern)")
    }
    return directory
  }

  /// The most pictures `--dump` and `--contact-sheet` draw for one replay (a 90-minute
  /// countdown is 5,400); past it the replay is refused before anything is written.
  static let maximumPictures = 10_000

  /// Plays the events through the lock screen (`RecordedPlayback`), with `judge`
  /// judging and printing each finished gesture, and, when asked, draws every
  /// picture as the device would and writes it (`--dump`, `--contact-sheet`).
  ///
  /// The first play judges and counts the pictures without drawing any text; the
  /// pictures are drawn by a second play of the same events that answers with the
  /// first play's judgements (a vault attempt is counted: it cannot be judged twice),
  /// once the count is known to be within the limit and the contact sheet can be
  /// laid out for it.
  static func play<J: PatternJudge & ~Copyable>(
    _ events: [TouchEvent], layout: GridLayout, frames: FrameOptions, minimumDots: Int,
    lockoutAtStart: Lockout = .none, judge: inout JudgementLog<J>,
    refused: (GestureOutcome, Lockout) -> Void = { _, _ in }
  ) throws(RecordingFailure) {
    guard frames.rendersFrames else {
      _ = judgeAndCount(
        events, layout: layout, frames: frames, minimumDots: minimumDots, lockoutAtStart: lockoutAtStart,
        pictures: .none, judge: &judge, refused: refused)
      return
    }
    // All lines or none: the play may still be refused for its number of pictures.
    Console.holdOutput()
    guard
      let pictures = judgeAndCount(
        events, layout: layout, frames: frames, minimumDots: minimumDots, lockoutAtStart: lockoutAtStart,
        pictures: .each(atMost: maximumPictures), judge: &judge, refused: refused)
    else { throw .tooManyPictures(limit: maximumPictures) }
    Console.releaseOutput()
    if let directory = frames.dumpDirectory {
      do throws(Errno) {
        try Directory.make(directory, permissions: 0o755)
      } catch {
        throw .dumpDirectory(path: directory, errno: error)
      }
    }
    var frames = frames
    if frames.text.atlas == nil && frames.screen.message.isEmpty {
      var language = frames.text.language
      do throws(TypefaceError) {
        let atlas = try ScreenText.loadAtlas(
          path: frames.fontPath, pixelSize: layout.fontPixels, message: frames.screen.message, language: &language,
          said: { Console.error($0.message) })
        frames.text = ScreenText(atlas: atlas, message: [], language: language)
      } catch {
        Console.error(error.message + "; drawing no text")
      }
    }
    var again = judge.replay
    switch frames.format {
    case .xrgb8888: try draw(XRGB8888.self, events, layout: layout, frames: frames, minimumDots: minimumDots, lockoutAtStart: lockoutAtStart, pictures: pictures, judge: &again)
    case .rgb565: try draw(RGB565.self, events, layout: layout, frames: frames, minimumDots: minimumDots, lockoutAtStart: lockoutAtStart, pictures: pictures, judge: &again)
    }
  }

  /// The first play: judges every gesture and counts the pictures, drawing no text.
  ///
  /// A function of its own so that its screen, and with it a whole frame, is freed
  /// before the second play makes the screen that draws: a replay holds one frame
  /// at a time (with both alive, a 1920x1080 dump's peak RSS was 8 MiB higher).
  ///
  /// - Returns: how many pictures the play presented, or nil when it passed the
  ///   limit of `pictures`.
  static func judgeAndCount<J: PatternJudge & ~Copyable>(
    _ events: [TouchEvent], layout: GridLayout, frames: FrameOptions, minimumDots: Int, lockoutAtStart: Lockout,
    pictures: RecordedPlayback.Pictures, judge: inout JudgementLog<J>, refused: (GestureOutcome, Lockout) -> Void
  ) -> Int? {
    let t = layout.transform
    var input = RecordedInput(events)
    var count = PictureCount<XRGB8888>(width: t.panelWidth, height: t.panelHeight)
    var screen = makeScreen(
      XRGB8888.self, layout: layout, frames: frames, text: ScreenText(atlas: nil, message: frames.text.message, language: frames.text.language),
      minimumDots: minimumDots)
    screen.startLockedOut(lockoutAtStart, now: input.startTime)
    let complete =
      (try? RecordedPlayback.play(
        &input, screen: &screen, display: &count, judge: &judge, pictures: pictures, refused: refused, unattended: report))
      ?? false
    return complete ? count.shown : nil
  }

  /// The second play: the same events, the first play's judgements, every picture
  /// drawn in `Pixel`'s format and written.
  static func draw<Pixel: PixelStorage>(
    _: Pixel.Type, _ events: [TouchEvent], layout: GridLayout, frames: FrameOptions, minimumDots: Int,
    lockoutAtStart: Lockout, pictures: Int, judge: inout JudgementReplay
  ) throws(RecordingFailure) {
    let t = layout.transform
    var input = RecordedInput(events)
    var screen = makeScreen(Pixel.self, layout: layout, frames: frames, text: frames.text, minimumDots: minimumDots)
    screen.startLockedOut(lockoutAtStart, now: input.startTime)
    var dump = PNGDumpDisplay<Pixel>(
      width: t.panelWidth, height: t.panelHeight, directory: frames.dumpDirectory,
      contactSheet: frames.contactSheet.map { ($0, pictures) })
    do throws(PNGError) {
      try RecordedPlayback.play(&input, screen: &screen, display: &dump, judge: &judge, pictures: .each(atMost: pictures))
      try dump.finish()
    } catch {
      throw .picture(error)
    }
  }

  /// The first play counts pictures without text; the second draws them with `text`.
  static func makeScreen<Pixel: PixelStorage>(
    _: Pixel.Type, layout: GridLayout, frames: FrameOptions, text: ScreenText, minimumDots: Int
  ) -> LockScreen<Pixel> {
    LockScreen<Pixel>(
      layout: layout, configuration: frames.screen, text: text, minimumDots: minimumDots, prompt: PromptText.drawPattern,
      gridRandomness: frames.screen.gridMotion == .off ? nil : SeededGridRandomness(seed: frames.gridSeed))
  }

  /// One JSON line for what the lock did by itself; `replay` never carries it out:
  /// `{"event":"timeout","action":"poweroff"}`, `{"event":"power-button","action":"poweroff"}`.
  static func report(_ event: UnattendedEvent, at _: UInt64) {
    var object = JSONObjectWriter()
    switch event {
    case .timeout(let action):
      object.add("event", string: "timeout")
      object.add("action", string: action.name)
    case .powerButton:
      object.add("event", string: "power-button")
      object.add("action", string: PowerAction.poweroff.name)
    }
    Console.out(object.json)
  }

  /// Bad files are bad input (2); only a read failing part-way is the environment (1).
  static func exitStatus(for error: RecordingError) -> ExitStatus {
    if case .readFailed = error { return .failure }
    return .badInput
  }
}
