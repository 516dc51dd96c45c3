import PatternCore
import Raster
import Scene

/// The rules by which a live loop steps a `LockScreen` on the real clock: when the
/// lock ends, when a frame is presented, and when the loop's timer is armed again.
/// `run`'s poll loop follows them and the step tests drive the screen through them,
/// so both test and product step the same way. It knows no descriptors: the loop
/// polls, reads the clock and arms its timer for `takeTimerDelay()`.
///
/// A frame is presented only when the picture is out of date and no flip is in flight,
/// so at most one flip is queued and the buffer on screen is never drawn into.
public struct LiveStepRules {
  /// The delay the timer is to be armed for, not yet taken by the loop.
  private var timerDelay: UInt64?

  public init() {}

  /// Why the lock ends now, before the loop presents or waits: an unlock whose verdict
  /// has had its time, or a power action whose picture is up; nil to go on.
  public func ending<Pixel: PixelStorage, D: Display & ~Copyable>(
    of screen: LockScreen<Pixel>, on display: borrowing D
  ) -> LiveEnding? {
    if display.isFlipPending { return nil }
    if screen.isFinished { return .unlocked }
    if let action = screen.requestedPowerAction, !screen.isDirty { return .power(action) }
    return nil
  }

  /// Whether to present now: the picture is out of date and no flip is in flight.
  public func shouldPresent<Pixel: PixelStorage, D: Display & ~Copyable>(
    _ screen: LockScreen<Pixel>, on display: borrowing D
  ) -> Bool {
    screen.isDirty && !display.isFlipPending
  }

  /// The loop starts: the timer is armed for the first change by itself.
  public mutating func start<Pixel: PixelStorage>(_ screen: LockScreen<Pixel>, at now: UInt64) {
    arm(for: screen, at: now)
  }

  /// One input event at `now`. A finished pattern (its verdict ends by itself) and a
  /// wake from blanking (the timer was left unarmed while blank) arm the timer.
  @discardableResult
  public mutating func receive<Pixel: PixelStorage, J: PatternJudge & ~Copyable>(
    _ event: InputEvent, at now: UInt64, screen: inout LockScreen<Pixel>, judge: inout J
  ) -> GestureOutcome? {
    let wasBlanked = screen.isBlanked
    let outcome = screen.receive(event, at: now, judge: &judge)
    if outcome != nil || (wasBlanked && !screen.isBlanked) { arm(for: screen, at: now) }
    return outcome
  }

  /// Someone is there without touching the lock (the door opened, its exit button was
  /// pressed) at `now`: a blank screen wakes, the idle time starts again.
  public mutating func activity<Pixel: PixelStorage>(at now: UInt64, screen: inout LockScreen<Pixel>) {
    screen.noteActivity(at: now)
    arm(for: screen, at: now)
  }

  /// A frame was presented at `now`: a verdict it showed first starts its time here
  /// (`LockScreen.present`), so the timer is armed for that verdict's end.
  public mutating func presented<Pixel: PixelStorage>(_ screen: LockScreen<Pixel>, at now: UInt64) {
    arm(for: screen, at: now)
  }

  /// The input ready at `now` was taken: input moves the next idle and timeout moments
  /// (and a lifted finger lets the screen blank again), so the timer follows them.
  public mutating func inputTaken<Pixel: PixelStorage>(_ screen: LockScreen<Pixel>, at now: UInt64) {
    arm(for: screen, at: now)
  }

  /// The timer fired at `now`: the clock runs to it, and the timer is armed again.
  public mutating func timerFired<Pixel: PixelStorage, J: PatternJudge & ~Copyable>(
    at now: UInt64, screen: inout LockScreen<Pixel>, judge: inout J
  ) {
    screen.advance(to: now, judge: &judge)
    arm(for: screen, at: now)
  }

  /// The judge's descriptor was ready at `now`: the answer it left pending is shown
  /// (`LockScreen.takeAnswer`), or with none pending the judge says whether its question
  /// went away; the timer follows the verdict it brought.
  public mutating func answerReady<Pixel: PixelStorage, J: PatternJudge & ~Copyable>(
    at now: UInt64, screen: inout LockScreen<Pixel>, judge: inout J
  ) {
    screen.takeAnswer(from: &judge, at: now)
    arm(for: screen, at: now)
  }

  /// The delay (µs, at least 1) to arm the timer for, once; nil when it stays as it
  /// is (a screen with nothing to wait for leaves the timer alone).
  public mutating func takeTimerDelay() -> UInt64? {
    defer { timerDelay = nil }
    return timerDelay
  }

  private mutating func arm<Pixel: PixelStorage>(for screen: LockScreen<Pixel>, at now: UInt64) {
    if let next = screen.nextChange(after: now) { timerDelay = next > now ? next - now : 1 }
  }
}

/// Why a live lock ended by itself (`LiveStepRules.ending`).
public enum LiveEnding: Equatable, Sendable {
  case unlocked
  /// The timeout or the power button asked to switch off or restart: never an unlock.
  case power(PowerAction)
}
