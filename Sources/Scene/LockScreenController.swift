import PatternCore

/// Drives the lock screen's state from touch events and the clock.
///
/// It owns the gesture tracker, shows a finished gesture's verdict for
/// `feedbackMicroseconds` (input is ignored meanwhile, as on a phone), then clears the
/// grid. The verdict itself comes from the caller: this module knows nothing of
/// secrets. Time is whatever clock the events carry (the device's or a recording's),
/// so a replay shows exactly the frames the device would.
public struct LockScreenController: Sendable {
  /// What the caller decided about a finished gesture.
  public enum Verdict: Sendable, Equatable {
    /// Accepted: shown in the success colour with the prompt.
    case accepted(PromptText)
    /// Rejected: shown in red with the prompt, then cleared.
    case rejected(PromptText)
    /// Neither: keep the dots in the entry colour with the prompt, then clear.
    case neutral(PromptText)
  }

  public private(set) var tracker: GestureTracker
  /// How long a verdict stays on screen.
  public let feedbackMicroseconds: UInt64
  /// The prompt shown while waiting for a pattern.
  public var idlePrompt: PromptText
  /// The state as it should be drawn now.
  public private(set) var state: LockScreenState
  /// When the verdict on screen ends, if one is showing.
  public private(set) var feedbackEnds: UInt64?

  public init(layout: GridLayout, minimumDots: Int = 4, feedbackMicroseconds: UInt64 = 500_000, idlePrompt: PromptText = PromptText("Draw your unlock pattern")) {
    tracker = GestureTracker(layout: layout, minimumDots: minimumDots)
    self.feedbackMicroseconds = feedbackMicroseconds
    self.idlePrompt = idlePrompt
    state = LockScreenState(prompt: idlePrompt)
  }

  /// Feeds one event, first letting the clock run to the event's time.
  ///
  /// - Returns: the finished gesture, for the caller to judge with `show(_:at:)`.
  public mutating func handle(_ event: TouchEvent) -> GestureOutcome? {
    advance(to: event.timeMicroseconds)
    guard feedbackEnds == nil else { return nil }
    let outcome = tracker.handle(event)
    if outcome == nil {
      state.trail = tracker.trail
      state.finger = tracker.fingerPosition
    }
    return outcome
  }

  /// Shows the verdict on a finished gesture until the feedback time has passed.
  public mutating func show(_ verdict: Verdict, for outcome: GestureOutcome) {
    state.trail = outcome.dots
    state.finger = nil
    switch verdict {
    case .accepted(let prompt):
      state.appearance = .success
      state.prompt = prompt
    case .rejected(let prompt):
      state.appearance = .wrong
      state.prompt = prompt
    case .neutral(let prompt):
      state.appearance = .entry
      state.prompt = prompt
    }
    feedbackEnds = outcome.timeMicroseconds + feedbackMicroseconds
  }

  /// Lets the clock run: ends a verdict whose time is up.
  public mutating func advance(to time: UInt64) {
    guard let ends = feedbackEnds, time >= ends else { return }
    feedbackEnds = nil
    tracker.reset()
    state = LockScreenState(prompt: idlePrompt)
  }
}
