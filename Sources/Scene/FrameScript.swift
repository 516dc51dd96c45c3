import PatternCore

/// Plays touch events through a lock-screen controller and reports each picture the
/// device would present.
///
/// A picture is reported at the end of every input frame (`TouchEvent.Kind.frame`)
/// that changed the state, and when a verdict's time runs out, at the time it ran
/// out: the same moments the device renders. The headless dumps, the tests and the
/// cross-architecture check all use this one loop, so they agree on which frames
/// exist.
public enum FrameScript {
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
    var shown = controller.state
    present(shown, events.first?.timeMicroseconds ?? 0)
    for event in events {
      if let ends = controller.feedbackEnds, event.timeMicroseconds >= ends {
        controller.advance(to: ends)
        if controller.state != shown {
          shown = controller.state
          present(shown, ends)
        }
      }
      if let outcome = controller.handle(event) {
        controller.show(judge(outcome), for: outcome)
      }
      if event.kind == .frame && controller.state != shown {
        shown = controller.state
        present(shown, event.timeMicroseconds)
      }
    }
    if let ends = controller.feedbackEnds {
      controller.advance(to: ends)
      if controller.state != shown {
        shown = controller.state
        present(shown, ends)
      }
    }
  }
}
