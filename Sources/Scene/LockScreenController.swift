import PatternCore

/// Drives the lock screen's state from touch events and the clock.
///
/// It owns the gesture tracker, shows a finished gesture's verdict for
/// `feedbackMicroseconds` (input is ignored meanwhile, as on a phone), then clears the
/// grid. The verdict itself comes from the caller: this module knows nothing of
/// secrets. Time is whatever clock the events carry (the device's or a recording's),
/// so a replay shows exactly the frames the device would.
///
/// Split by concern: this file holds the state and touch input; the keyboard, the
/// refusals (lockouts, storage errors), the clock and the power button are extensions
/// in their own files, which is why the state is internal to Scene rather than private.
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

  public internal(set) var tracker: GestureTracker
  /// How long a verdict stays on screen.
  public let feedbackMicroseconds: UInt64
  /// The prompt shown while waiting for a pattern.
  public var idlePrompt: PromptText
  /// The state as it should be drawn now.
  public internal(set) var state: LockScreenState
  /// When the verdict on screen ends, if one is showing.
  public internal(set) var feedbackEnds: UInt64?
  /// The verdict waits for its first frame before its time starts to run
  /// (`holdVerdictUntilShown`): a slow judgement must not use up the time it is seen for.
  public internal(set) var verdictAwaitsFrame = false
  /// A pattern whose judge answers later, and when it must have answered by.
  public internal(set) var awaitedAnswer: (outcome: GestureOutcome, due: UInt64)?
  /// How the grid moves between attempts (`grid-motion`).
  public let gridMotion: GridMotion
  /// Where the grid stands now; `.home` while `gridMotion` is off.
  public internal(set) var grid = GridPlacement.home
  /// Where it stands for the next attempt, once the verdict on screen clears; the
  /// driver supplies it (`prepareNextGrid`) so the randomness stays outside.
  var upcomingGrid: GridPlacement?
  /// Dots joined with the keyboard, not yet submitted.
  var keyed = DotSequence()

  /// Why input is refused, on this controller's clock: a `Lockout` applied at a
  /// moment becomes an end time here, so the countdown runs from when it was applied.
  enum Refusal: Sendable, Equatable {
    case until(UInt64)
    case permanent
    /// The last attempt could not be counted on disk (or the TPM gave no verdict), so
    /// none is judged until a retry succeeds; the caller tries again from `retryAt`
    /// (`storageRetryDue`). `prompt` names the cause.
    case storageError(retryAt: UInt64, prompt: PromptText)
  }

  /// What refuses input now, if anything: a countdown or a lock is shown.
  var refusal: Refusal?

  /// Whether a lockout (or a storage error) refuses input.
  public var isLockedOut: Bool { refusal != nil }

  /// Whether touches and keys are taken now (no verdict showing, no lockout).
  public var isAcceptingInput: Bool {
    feedbackEnds == nil && refusal == nil && requestedPowerAction == nil && awaitedAnswer == nil
  }

  /// Blank the screen after this long without input; nil never blanks.
  public let idleBlankMicroseconds: UInt64?
  /// When input last came (nil until the clock is first seen).
  var lastActivity: UInt64?
  /// Whether the screen is blanked now.
  public internal(set) var isBlanked = false
  /// Dim the backlight after this long without input; nil never. Comes before
  /// blanking: a time at or past `idleBlankMicroseconds` never dims.
  public let dimAfterMicroseconds: UInt64?
  /// Whether the screen is dimmed now (never while blanked).
  public internal(set) var isDimmed = false

  /// The unattended timeout (`timeout-s`): after this long without input,
  /// `timeoutAction` runs; nil never. It counts while the screen is blanked too.
  public let timeoutMicroseconds: UInt64?
  public let timeoutAction: TimeoutAction
  /// The timeout ran out and no input came since: it runs once per quiet spell.
  var timeoutSpent = false
  /// When the timeout runs out if no input comes; nil when it is off or spent.
  public var timeoutDue: UInt64? {
    guard requestedPowerAction == nil, let timeout = timeoutMicroseconds, !timeoutSpent, let last = lastActivity else { return nil }
    return last + timeout
  }
  /// How many times the timeout has run out (`replay` reports each).
  public internal(set) var timeoutsExpired = 0
  /// Switching off or restarting, asked by the timeout or the power button: from then
  /// on input is ignored and the picture says so; the driver ends the lock, which
  /// never opens.
  public internal(set) var requestedPowerAction: PowerAction?

  /// How long the power button must be held to switch the machine off.
  public static let powerPressMicroseconds: UInt64 = 2_000_000
  /// The steps the long press's ring fills in (one per 15 degrees).
  public static let powerPressSteps = 24
  /// The finger that went down on the power button: none of its events reach the
  /// pattern until it lifts.
  var buttonSlot: Int32?
  /// When that finger went down; nil once it slid off the button (the press is void).
  var buttonPressStart: UInt64?

  /// - Parameters:
  ///   - idleBlankMicroseconds: blank the screen after this long without input
  ///     (nil: never); the touch or key that wakes it does nothing else, as on a phone.
  ///   - dimAfterMicroseconds: dim the backlight after this long without input (nil:
  ///     never); the picture stays, so the touch that brightens it is taken as input.
  ///   - timeoutMicroseconds: run `timeoutAction` after this long without input (nil: never).
  ///   - inputMode: whether touches drag, tap dot by dot, or either (`input =`).
  ///   - gridMotion: how the grid moves between attempts; the placements themselves
  ///     come from the driver (`moveGrid(to:)`, `prepareNextGrid(_:)`).
  public init(
    layout: GridLayout, minimumDots: Int = 4, feedbackMicroseconds: UInt64 = 500_000,
    idlePrompt: PromptText = .drawPattern, idleBlankMicroseconds: UInt64? = nil, dimAfterMicroseconds: UInt64? = nil,
    timeoutMicroseconds: UInt64? = nil, timeoutAction: TimeoutAction = .none, inputMode: InputMode = .drag,
    gridMotion: GridMotion = .off
  ) {
    self.gridMotion = gridMotion
    tracker = GestureTracker(layout: layout, minimumDots: minimumDots, inputMode: inputMode)
    self.idleBlankMicroseconds = idleBlankMicroseconds
    self.dimAfterMicroseconds = dimAfterMicroseconds
    self.timeoutMicroseconds = timeoutAction == .none ? nil : timeoutMicroseconds
    self.timeoutAction = timeoutAction
    self.feedbackMicroseconds = feedbackMicroseconds
    self.idlePrompt = idlePrompt
    state = LockScreenState(prompt: idlePrompt)
  }

  /// Feeds one event, first letting the clock run to the event's time.
  ///
  /// - Returns: the finished gesture, for the caller to judge with `show(_:at:)`.
  public mutating func handle(_ event: TouchEvent) -> GestureOutcome? {
    advance(to: event.timeMicroseconds)
    if event.kind != .frame && wake(at: event.timeMicroseconds) { return nil }
    guard requestedPowerAction == nil, !pressPowerButton(event) else { return nil }
    guard isAcceptingInput else { return nil }
    let wasActive = tracker.isActive
    let outcome = tracker.handle(event)
    // A finger taking over drops any half-typed keyboard pattern.
    if !wasActive && tracker.isActive { keyed.removeAll() }
    if outcome == nil && (wasActive || tracker.isActive) {
      state.trail = tracker.shownTrail
      state.finger = tracker.shownFinger
    }
    return outcome
  }

  /// When a tap entry confirms itself for want of another tap, if one is waiting.
  public var tapConfirmationDue: UInt64? {
    guard isAcceptingInput, !tracker.isActive else { return nil }
    return tracker.taps.confirmationDue
  }

  /// Confirms a tap entry whose pause is over at `time` (`TapEntry`).
  ///
  /// - Returns: the finished pattern, for the caller to judge as any other; nil when
  ///   none is due.
  public mutating func confirmTapsIfPaused(at time: UInt64) -> GestureOutcome? {
    guard isAcceptingInput else { return nil }
    return tracker.confirmTapsIfPaused(at: time)
  }

  /// Moves the drawn mouse cursor (relative pointers only; nil hides it).
  public mutating func movePointer(to point: Point?) {
    state.pointer = point
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
    verdictAwaitsFrame = false
  }

  /// Keeps the verdict just shown until a frame with it is presented: its time then
  /// counts from that frame (`verdictShown(at:)`), not from the finger's lift, so an
  /// Argon2id or TPM judgement slower than `feedbackMicroseconds` still leaves the red
  /// (or the unlock colour) on screen for the whole time. Only a driver that presents
  /// frames may hold a verdict: one that never calls `verdictShown` would keep it forever.
  public mutating func holdVerdictUntilShown() {
    if feedbackEnds != nil { verdictAwaitsFrame = true }
  }

  /// A frame showing the held verdict was presented at `time`: its time runs from here.
  public mutating func verdictShown(at time: UInt64) {
    guard verdictAwaitsFrame else { return }
    verdictAwaitsFrame = false
    feedbackEnds = time + feedbackMicroseconds
  }

  /// Shows the caller's judgement of a finished gesture: the next idle prompt, the
  /// verdict, then the lockout that follows it. (`unlocks` is the loop's business:
  /// it stops once the verdict has had its time.)
  ///
  /// - Parameter now: when the judgement was made; a lockout's length counts from here.
  public mutating func apply(_ judgement: Judgement, for outcome: GestureOutcome, at now: UInt64) {
    awaitedAnswer = nil
    if let due = judgement.answerDue {
      // Not a verdict yet: the pattern stays, neutral, with "Checking…", no input is
      // taken, and no verdict time runs until the answer is applied.
      show(judgement.verdict, for: outcome)
      feedbackEnds = nil
      awaitedAnswer = (outcome, due)
      return
    }
    if let prompt = judgement.nextPrompt { idlePrompt = prompt }
    show(judgement.verdict, for: outcome)
    if let retryAt = judgement.storageRetryAt {
      var cause = PromptText.storageError
      if case .rejected(let prompt) = judgement.verdict { cause = prompt }
      refuseUntilStorageWritable(retryAt: retryAt, prompt: cause, at: now)
    } else {
      lockOut(judgement.lockout, at: now)
    }
  }

}
