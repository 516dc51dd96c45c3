import PatternCore

/// Plays touch events through a lock-screen controller and reports each picture the
/// device would present.
///
/// A picture is reported at the end of every input frame (`TouchEvent.Kind.frame`)
/// that changed the state, and whenever the picture changes by itself, at the time it
/// does: a verdict's time running out, a lockout countdown's next second, idle
/// blanking. Those are the moments `run`'s event loop renders, since it arms its timer
/// with the same `LockScreenController.nextChange(after:)`. The headless dumps, the
/// tests and the cross-architecture check all use this one loop, so they agree on
/// which frames exist.
///
/// The clock stops with the recording: after the last event only the verdict on
/// screen is let run out (a countdown is not played on to its end: a day-long lockout
/// would be 86,400 pictures nobody asked for).
///
/// A long gap between two events costs no more than its pictures: without pictures
/// (`wantsPictures: false`) the clock jumps straight to the next event, and with them
/// it stops at each change the screen shows (a countdown in days changes once a day,
/// see `LockScreenController.nextChange`), and the play ends early once more than
/// `picturesAtMost` pictures were reported.
public enum FrameScript {
  /// Plays with verdicts only (no lockouts, never ending the lock): `replay` without a
  /// secret store, and the scene tests.
  ///
  /// - Parameters:
  ///   - events: touch events in time order.
  ///   - controller: the lock screen's state machine, left as the events leave it.
  ///   - judge: decides each finished gesture.
  ///   - present: receives each new state and its time in microseconds.
  public static func play(
    _ events: [TouchEvent], controller: inout LockScreenController,
    judge: (GestureOutcome) -> LockScreenController.Verdict,
    present: (LockScreenState, UInt64) -> Void
  ) {
    play(events, controller: &controller, decide: { LockScreenController.Judgement(verdict: judge($0)) }, present: present)
  }

  /// Plays with full judgements, as `run` applies them: lockouts refuse input and
  /// count down, and an unlock ends the play once its verdict has had its time (the
  /// live loop returns there, before drawing the cleared grid).
  ///
  /// - Parameters:
  ///   - events: touch events in time order.
  ///   - controller: the lock screen's state machine (already locked out, when a
  ///     lockout was running at the start), left as the events leave it.
  ///   - decide: judges each finished gesture at its own time.
  ///   - refused: receives each gesture drawn while a lockout refused input, with the
  ///     lockout as it stood when the gesture ended (nil once it had run out). The
  ///     screen ignores such a gesture; `replay` still reports it (`locked-out`).
  ///   - wantsPictures: false when no picture is wanted: the clock then jumps from
  ///     event to event (`present` still sees the states at events).
  ///   - picturesAtMost: the play stops once `present` was called more often.
  ///   - present: receives each new state and its time in microseconds.
  /// - Returns: false when the play stopped at `picturesAtMost`.
  @discardableResult
  public static func play(
    _ events: [TouchEvent], controller: inout LockScreenController,
    decide: (GestureOutcome) -> LockScreenController.Judgement,
    refused: (GestureOutcome, LockScreenController.Lockout?) -> Void = { _, _ in },
    wantsPictures: Bool = true, picturesAtMost: Int = Int.max,
    present: (LockScreenState, UInt64) -> Void
  ) -> Bool {
    var clock = events.first?.timeMicroseconds ?? 0
    var shown = controller.state
    var unlocked = false
    var pictures = 1
    // What the finger drew whether or not the screen took it, to name the gestures a
    // lockout refused.
    var unfiltered = GestureTracker(layout: controller.tracker.layout, minimumDots: controller.tracker.minimumDots)
    var unfilteredBeganInLockout = false
    present(shown, clock)
    var stoppedAtLimit: Bool { pictures > picturesAtMost }

    /// Fires the timer the live loop would have armed, up to `limit`; false once the
    /// lock has ended.
    func runClock(to limit: UInt64) -> Bool {
      if !wantsPictures {
        // Where the loop would stop along the way changes nothing but pictures.
        if controller.nextChange(after: clock).map({ $0 <= limit }) ?? false {
          controller.advance(to: limit)
          clock = max(clock, limit)
          if unlocked && controller.feedbackEnds == nil { return false }
          shown = controller.state
        }
        return true
      }
      var previous: UInt64? = nil
      while let next = controller.nextChange(after: clock), next <= limit {
        // The same moment again means nothing moved (a finger resting past the idle
        // time); the next event moves the clock on.
        if next == previous { break }
        previous = next
        controller.advance(to: next)
        clock = max(clock, next)
        if unlocked && controller.feedbackEnds == nil { return false }
        if controller.state != shown {
          shown = controller.state
          present(shown, next)
          pictures += 1
          if pictures > picturesAtMost { return false }
        }
      }
      return true
    }

    for event in events {
      guard runClock(to: event.timeMicroseconds) else { return !stoppedAtLimit }
      clock = max(clock, event.timeMicroseconds)
      let wasDrawing = unfiltered.isActive
      let drawn = unfiltered.handle(event)
      if !wasDrawing && unfiltered.isActive { unfilteredBeganInLockout = controller.lockout != nil }
      if let drawn, unfilteredBeganInLockout {
        // The clock has already run to this event's time, which is the gesture's end.
        unfilteredBeganInLockout = false
        refused(drawn, controller.lockout)
      }
      if let outcome = controller.handle(event) {
        let judgement = decide(outcome)
        controller.apply(judgement, for: outcome, at: outcome.timeMicroseconds)
        if judgement.unlocks { unlocked = true }
      }
      if event.kind == .frame && controller.state != shown {
        shown = controller.state
        present(shown, event.timeMicroseconds)
        pictures += 1
        if pictures > picturesAtMost { return false }
      }
    }
    if let ends = controller.feedbackEnds { _ = runClock(to: ends) }
    return !stoppedAtLimit
  }
}
