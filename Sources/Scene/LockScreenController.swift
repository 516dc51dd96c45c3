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
  /// Dots joined with the keyboard, not yet submitted.
  private var keyed = DotSequence()

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
    let wasActive = tracker.isActive
    let outcome = tracker.handle(event)
    // A finger taking over drops any half-typed keyboard pattern.
    if !wasActive && tracker.isActive { keyed.removeAll() }
    if outcome == nil && (wasActive || tracker.isActive) {
      state.trail = tracker.trail
      state.finger = tracker.fingerPosition
    }
    return outcome
  }

  /// Moves the drawn mouse cursor (relative pointers only; nil hides it).
  public mutating func movePointer(to point: Point?) {
    state.pointer = point
  }

  // MARK: Keyboard entry (accessibility): digits join dots, Backspace, Enter, Escape.

  /// Joins a dot by number, as the digit keys do; ignored while drawing with a finger,
  /// during a verdict, for a dot already joined or beyond the grid.
  public mutating func keyDot(_ dot: Int, at time: UInt64) {
    advance(to: time)
    guard feedbackEnds == nil, !tracker.isActive, dot >= 1, dot <= tracker.layout.dotCount else { return }
    var trail = keyed
    if trail.append(dot) {
      keyed = trail
      state.trail = keyed
      state.finger = nil
    }
  }

  /// Removes the last dot joined by keyboard (Backspace).
  public mutating func keyBackspace(at time: UInt64) {
    advance(to: time)
    guard feedbackEnds == nil, !tracker.isActive else { return }
    keyed.removeLast()
    state.trail = keyed
  }

  /// Forgets the dots joined by keyboard (Escape).
  public mutating func keyClear(at time: UInt64) {
    advance(to: time)
    guard feedbackEnds == nil, !tracker.isActive else { return }
    keyed.removeAll()
    state.trail = keyed
  }

  /// Finishes the pattern joined by keyboard (Enter), as a finger lifting would.
  ///
  /// - Returns: the finished pattern, for the caller to judge with `show(_:for:)`.
  public mutating func keySubmit(at time: UInt64) -> GestureOutcome? {
    advance(to: time)
    guard feedbackEnds == nil, !tracker.isActive, !keyed.isEmpty else { return nil }
    let dots = keyed
    keyed.removeAll()
    return GestureOutcome(dots: dots, result: dots.count >= tracker.minimumDots ? .complete : .tooShort, timeMicroseconds: time)
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
    keyed.removeAll()
    state = LockScreenState(prompt: idlePrompt, pointer: state.pointer)
  }
}
