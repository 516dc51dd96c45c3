import CommandKit
import LockProgram
import PatternCore
import Scene
import SystemCalls
import Vault

extension ReplayCommand {
  /// `replay FILE --state-dir DIR`: plays the recording as `run --state-dir DIR` would
  /// have taken it on the device, judging each finished gesture against the pattern
  /// enrolled in DIR with the same `VaultGate`, and prints each decision:
  /// `{"result":"unlocked"|"wrong"|"too-short"|"locked-out"}`, with `"retry_in_s"` when
  /// a lockout starts or runs and `"failures"` after a counted failure. The dots are
  /// never printed: they are guesses at a real secret.
  ///
  /// The clock is the recording's: verdicts and lockouts run on the events' microsecond
  /// timestamps, and the wall clock (for the 5-minute repeat rule and the attempts file)
  /// is now plus the time since the first event (`UnlockClock`). As on the device, a
  /// gesture begun while a verdict is on screen is ignored (no line), one begun during
  /// a lockout is refused without being judged or counted (a `locked-out` line with
  /// `retry_in_s`, the countdown's figure; the screen shows nothing new), and the
  /// replay ends once an unlock has been shown. The judging is done against a copy of
  /// DIR in memory: nothing is ever written there, so a recording's made-up clock can
  /// neither lift nor shorten a real lockout. The replay starts like a restart: a
  /// pending lockout begins again at the first event.
  ///
  /// `--dump` and `--contact-sheet` draw the same play: "Wrong pattern: 2 tries left",
  /// the "Try again in 0:59" countdown each second, "Locked: ask an administrator".
  /// They change no line (the lines are printed during the play, the pictures drawn
  /// from its states afterwards).
  static func runPolicy(
    _ events: [TouchEvent], layout: GridLayout, frames: FrameOptions, stateDirectory path: String, throttle: ThrottleTable
  ) throws(RecordingFailure) {
    let start = events.first?.timeMicroseconds ?? 0
    var gate = try openGate(copyOf: path, throttle: throttle, start: start)
    do throws(VaultError) {
      try gate.requireGrid(layout.gridSize)
    } catch {
      throw .vault(error)
    }
    let minimumDots = gate.minimumDotsToCheck
    let lockout = gate.lockoutAtStart(now: start)
    var judge = JudgementLog(gate)
    try play(
      events, layout: layout, frames: frames, minimumDots: minimumDots, lockoutAtStart: lockout, judge: &judge,
      refused: { outcome, lockout in Console.out(lockedOutDecision(outcome, lockout: lockout).jsonLine) })
    // The pictures are out; the replay still reports, by its status, what the device would have.
    if let failure = judge.inner.attemptFailure { throw .vaultAlreadyReported(failure) }
  }

  private static func openGate(copyOf path: String, throttle: ThrottleTable, start: UInt64) throws(RecordingFailure) -> VaultGate {
    do throws(VaultError) {
      return try VaultGate(copyOf: path, throttle: throttle, clock: .recording(startingAt: start), startingAt: start)
    } catch {
      throw .vault(error)
    }
  }

  /// What a gesture the screen refused during a lockout gets: nothing was judged or
  /// counted; `retry_in_s` is what the countdown showed when the gesture ended (whole
  /// seconds, rounded up; 0 when the lockout ran out while the finger was still down).
  static func lockedOutDecision(_ outcome: GestureOutcome, lockout: Lockout) -> UnlockDecision {
    UnlockDecision(result: .lockedOut, lockout: lockout == .none ? .seconds(0) : lockout)
  }
}
