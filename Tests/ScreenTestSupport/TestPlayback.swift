import PatternCore
import Raster
import Scene
import Screen

/// A judge made of a closure, for tests.
public struct ClosureJudge: PatternJudge {
  let decide: (GestureOutcome, UInt64) -> LockScreenController.Judgement
  public init(_ decide: @escaping (GestureOutcome, UInt64) -> LockScreenController.Judgement) { self.decide = decide }
  public mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement { decide(outcome, now) }
}

/// Plays a recording through `LockScreen` and `RecordedPlayback`, as `replay` does,
/// onto a memory display, for tests that look at the states presented and when.
public enum TestPlayback {
  /// - Parameters:
  ///   - lockoutAtStart: a lockout running when the play begins.
  ///   - decide: judges each finished gesture.
  ///   - refused: receives the gestures a lockout refused.
  ///   - present: receives each presented state and its time.
  ///   - inputMode: drag, tap or both.
  public static func play(
    _ events: [TouchEvent], layout: GridLayout, lockoutAtStart: Lockout = .none,
    decide: @escaping (GestureOutcome) -> LockScreenController.Judgement,
    refused: (GestureOutcome, Lockout) -> Void = { _, _ in },
    inputMode: InputMode = .drag,
    present: (LockScreenState, UInt64) -> Void
  ) {
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(inputMode: inputMode))
    var input = RecordedInput(events)
    screen.startLockedOut(lockoutAtStart, now: input.startTime)
    var display = MemoryDisplay<XRGB8888>(width: layout.transform.panelWidth, height: layout.transform.panelHeight)
    var judge = ClosureJudge { outcome, _ in decide(outcome) }
    _ = try? RecordedPlayback.play(
      &input, screen: &screen, display: &display, judge: &judge, pictures: .each(atMost: Int.max), refused: refused,
      onPicture: present)
  }

  /// Plays with verdicts only (no lockouts, never ending the lock).
  public static func play(
    _ events: [TouchEvent], layout: GridLayout, judge: @escaping (GestureOutcome) -> LockScreenController.Verdict,
    inputMode: InputMode = .drag, present: (LockScreenState, UInt64) -> Void
  ) {
    play(events, layout: layout, decide: { LockScreenController.Judgement(verdict: judge($0)) }, inputMode: inputMode, present: present)
  }
}
