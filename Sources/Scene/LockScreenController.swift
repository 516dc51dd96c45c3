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

  /// Why input is refused, on this controller's clock: a `Lockout` applied at a
  /// moment becomes an end time here, so the countdown runs from when it was applied.
  private enum Refusal: Sendable, Equatable {
    case until(UInt64)
    case permanent
    /// The last attempt could not be counted on disk, so none is judged until a write
    /// succeeds; the caller tries again from `retryAt` (`storageRetryDue`).
    case storageError(retryAt: UInt64)
  }

  /// Whether the caller should try the storage again now (see `refuseUntilStorageWritable`).
  public func storageRetryDue(at now: UInt64) -> Bool {
    guard case .storageError(let retryAt) = refusal, feedbackEnds == nil else { return false }
    return now >= retryAt
  }

  /// Ends a storage error once a write succeeded: the screen returns to the prompt, or
  /// to `then`, the lockout the recorded attempts impose.
  public mutating func endStorageError(then next: Lockout, at now: UInt64) {
    guard case .storageError = refusal else { return }
    refusal = nil
    state = LockScreenState(prompt: idlePrompt, pointer: state.pointer)
    lockOut(next, at: now)
  }

  /// What refuses input now, if anything: a countdown or a lock is shown.
  private var refusal: Refusal?

  /// Whether a lockout (or a storage error) refuses input.
  public var isLockedOut: Bool { refusal != nil }

  /// What is left of the lockout at `now`, for reports: the whole seconds of a
  /// countdown (rounded up, as shown), permanent for a lock until reset and for a
  /// storage error (nothing is judged until an administrator acts), none otherwise.
  public func lockout(at now: UInt64) -> Lockout {
    switch refusal {
    case .until(let ends): return ends > now ? .seconds(Int64((ends - now + 999_999) / 1_000_000)) : .none
    case .permanent, .storageError: return .permanent
    case nil: return .none
    }
  }

  /// Whether touches and keys are taken now (no verdict showing, no lockout).
  public var isAcceptingInput: Bool { feedbackEnds == nil && refusal == nil && requestedPowerAction == nil }

  /// Blank the screen after this long without input; nil never blanks.
  public let idleBlankMicroseconds: UInt64?
  /// When input last came (nil until the clock is first seen).
  private var lastActivity: UInt64?
  /// Whether the screen is blanked now.
  public private(set) var isBlanked = false

  /// The unattended timeout (`timeout-s`): after this long without input,
  /// `timeoutAction` runs; nil never. It counts while the screen is blanked too.
  public let timeoutMicroseconds: UInt64?
  public let timeoutAction: TimeoutAction
  /// The timeout ran out and no input came since: it runs once per quiet spell.
  private var timeoutSpent = false
  /// When the timeout runs out if no input comes; nil when it is off or spent.
  public var timeoutDue: UInt64? {
    guard requestedPowerAction == nil, let timeout = timeoutMicroseconds, !timeoutSpent, let last = lastActivity else { return nil }
    return last + timeout
  }
  /// How many times the timeout has run out (`replay` reports each).
  public private(set) var timeoutsExpired = 0
  /// Switching off or restarting, asked by the timeout or the power button: from then
  /// on input is ignored and the picture says so; the driver ends the lock, which
  /// never opens.
  public private(set) var requestedPowerAction: PowerAction?

  /// How long the power button must be held to switch the machine off.
  public static let powerPressMicroseconds: UInt64 = 2_000_000
  /// The steps the long press's ring fills in (one per 15 degrees).
  public static let powerPressSteps = 24
  /// The finger that went down on the power button: none of its events reach the
  /// pattern until it lifts.
  private var buttonSlot: Int32?
  /// When that finger went down; nil once it slid off the button (the press is void).
  private var buttonPressStart: UInt64?

  /// - Parameters:
  ///   - idleBlankMicroseconds: blank the screen after this long without input
  ///     (nil: never); the touch or key that wakes it does nothing else, as on a phone.
  ///   - timeoutMicroseconds: run `timeoutAction` after this long without input (nil: never).
  ///   - inputMode: whether touches drag, tap dot by dot, or either (`input =`).
  public init(
    layout: GridLayout, minimumDots: Int = 4, feedbackMicroseconds: UInt64 = 500_000,
    idlePrompt: PromptText = .drawPattern, idleBlankMicroseconds: UInt64? = nil,
    timeoutMicroseconds: UInt64? = nil, timeoutAction: TimeoutAction = .none, inputMode: InputMode = .drag
  ) {
    tracker = GestureTracker(layout: layout, minimumDots: minimumDots, inputMode: inputMode)
    self.idleBlankMicroseconds = idleBlankMicroseconds
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

  // MARK: Keyboard entry (accessibility): digits join dots, Backspace, Enter, Escape.

  /// Joins a dot by number, as the digit keys do; ignored while drawing with a finger,
  /// during a verdict, for a dot already joined or beyond the grid.
  public mutating func keyDot(_ dot: Int, at time: UInt64) {
    advance(to: time)
    if wake(at: time) { return }
    guard isAcceptingInput, !tracker.isActive, dot >= 1, dot <= tracker.layout.dotCount else { return }
    // Typing starts a keyboard entry: taps not yet confirmed are dropped.
    tracker.reset()
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
    if wake(at: time) { return }
    guard isAcceptingInput, !tracker.isActive else { return }
    tracker.reset()
    keyed.removeLast()
    state.trail = keyed
  }

  /// Forgets the dots joined by keyboard (Escape).
  public mutating func keyClear(at time: UInt64) {
    advance(to: time)
    if wake(at: time) { return }
    guard isAcceptingInput, !tracker.isActive else { return }
    tracker.reset()
    keyed.removeAll()
    state.trail = keyed
  }

  /// Finishes the pattern joined by keyboard (Enter), as a finger lifting would.
  ///
  /// - Returns: the finished pattern, for the caller to judge with `show(_:for:)`.
  public mutating func keySubmit(at time: UInt64) -> GestureOutcome? {
    advance(to: time)
    if wake(at: time) { return nil }
    guard isAcceptingInput, !tracker.isActive, !keyed.isEmpty else { return nil }
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

  /// Shows the caller's judgement of a finished gesture: the next idle prompt, the
  /// verdict, then the lockout that follows it. (`unlocks` is the loop's business:
  /// it stops once the verdict has had its time.)
  ///
  /// - Parameter now: when the judgement was made; a lockout's length counts from here.
  public mutating func apply(_ judgement: Judgement, for outcome: GestureOutcome, at now: UInt64) {
    if let prompt = judgement.nextPrompt { idlePrompt = prompt }
    show(judgement.verdict, for: outcome)
    if let retryAt = judgement.storageRetryAt {
      refuseUntilStorageWritable(retryAt: retryAt, at: now)
    } else {
      lockOut(judgement.lockout, at: now)
    }
  }

  /// Refuses input until `lockout` ends, counted from `now`, showing a countdown (after
  /// any verdict on screen has had its time). `.none` changes nothing.
  public mutating func lockOut(_ lockout: Lockout, at now: UInt64) {
    switch lockout {
    case .none: return
    case .permanent: refuse(.permanent, at: now)
    case .seconds: refuse(.until(lockout.end(from: now) ?? now), at: now)
    }
  }

  /// Refuses input because the last attempt could not be recorded: "Storage error"
  /// until a write succeeds; the caller tries again from `retryAt`.
  public mutating func refuseUntilStorageWritable(retryAt: UInt64, at now: UInt64) {
    refuse(.storageError(retryAt: retryAt), at: now)
  }

  private mutating func refuse(_ refusal: Refusal, at now: UInt64) {
    self.refusal = refusal
    tracker.reset()
    keyed.removeAll()
    advance(to: now)
  }

  /// When the picture changes next by itself: the end of a verdict, or the next
  /// second of a countdown. The event loop arms its timer for it.
  public func nextChange(after now: UInt64) -> UInt64? {
    guard requestedPowerAction == nil else { return nil }
    var next: UInt64? = nil
    // A finger resting on the glass (or on the power button) keeps the screen from
    // blanking, so its idle time is no moment to wake for: the time would already be
    // past, and the loop would spin. The input that ends the touch arms the timer again.
    if let idle = idleBlankMicroseconds, !isBlanked, !tracker.isActive, buttonSlot == nil {
      next = (lastActivity ?? now) + idle
    }
    if let timeout = timeoutMicroseconds, !timeoutSpent { next = min(next ?? .max, (lastActivity ?? now) + timeout) }
    if let start = buttonPressStart { next = min(next ?? .max, nextPowerPressStep(start: start, after: now)) }
    if let due = tapConfirmationDue { next = min(next ?? .max, max(due, now)) }
    if let ends = feedbackEnds { return min(ends, next ?? ends) }
    if case .storageError(let retryAt) = refusal { return min(max(retryAt, now), next ?? retryAt) }
    guard case .until(let ends) = refusal, !isBlanked else { return next }
    guard ends > now else { return now }
    let remaining = ends - now
    let shownSeconds = (remaining + 999_999) / 1_000_000
    let tick: UInt64
    if shownSeconds >= PromptText.secondsShownInDays {
      // "Try again in N days" changes when the rounded-up seconds drop below N days.
      let days = shownSeconds / 86_400
      tick = ends - (days * 86_400 - 1) * 1_000_000
    } else {
      let toNextSecond = remaining % 1_000_000
      tick = now + (toNextSecond == 0 ? 1_000_000 : toNextSecond)
    }
    return min(tick, next ?? tick)
  }

  /// Notes input at `time`; when the screen was blank, wakes it and reports that the
  /// input was used up by waking.
  private mutating func wake(at time: UInt64) -> Bool {
    lastActivity = time
    timeoutSpent = false
    guard isBlanked else { return false }
    isBlanked = false
    state.blanked = false
    return true
  }

  /// Lets the clock run: ends a verdict or a lockout whose time is up, and keeps a
  /// countdown's seconds current.
  public mutating func advance(to time: UInt64) {
    guard requestedPowerAction == nil else { return }
    defer { runClockedActions(at: time) }
    if let ends = feedbackEnds, time >= ends {
      feedbackEnds = nil
      tracker.reset()
      keyed.removeAll()
      state = LockScreenState(prompt: idlePrompt, pointer: state.pointer)
    }
    guard feedbackEnds == nil, let refusal else { return }
    switch refusal {
    case .permanent:
      state = LockScreenState(appearance: .wrong, prompt: .lockedUntilReset, pointer: state.pointer)
    case .storageError:
      state = LockScreenState(appearance: .wrong, prompt: .storageError, pointer: state.pointer)
    case .until(let ends):
      if time >= ends {
        self.refusal = nil
        state = LockScreenState(prompt: idlePrompt, pointer: state.pointer)
      } else {
        let seconds = Int((ends - time + 999_999) / 1_000_000)
        state = LockScreenState(appearance: .wrong, prompt: PromptText.tryAgain(in: seconds), pointer: state.pointer)
      }
    }
  }

  /// What the clock alone brings about, in order: the power button's long press, the
  /// unattended timeout, idle blanking.
  private mutating func runClockedActions(at time: UInt64) {
    if lastActivity == nil { lastActivity = time }
    if let start = buttonPressStart {
      if time >= start + LockScreenController.powerPressMicroseconds {
        request(.poweroff)
        return
      }
      state.powerPress = Int((time - start) * UInt64(LockScreenController.powerPressSteps) / LockScreenController.powerPressMicroseconds)
    }
    if let timeout = timeoutMicroseconds, !timeoutSpent, let last = lastActivity, time >= last + timeout {
      timeoutSpent = true
      timeoutsExpired += 1
      if let action = timeoutAction.powerAction {
        request(action)
        return
      }
      // timeout-action = blank; a finger resting on the glass is input that stopped.
      tracker.reset()
      keyed.removeAll()
      isBlanked = true
    }
    if let idle = idleBlankMicroseconds, !isBlanked, !tracker.isActive, buttonSlot == nil, let last = lastActivity,
      time >= last + idle
    {
      isBlanked = true
    }
    state.blanked = isBlanked
  }

  /// Ends the lock without opening it: input is ignored and the picture says what
  /// comes (shown, not blank, for the last frame and for `replay`).
  private mutating func request(_ action: PowerAction) {
    requestedPowerAction = action
    tracker.reset()
    keyed.removeAll()
    buttonSlot = nil
    buttonPressStart = nil
    feedbackEnds = nil
    isBlanked = false
    state = LockScreenState(prompt: PromptText.announcing(action))
  }

  // MARK: The power button

  /// Takes the events of a finger that went down on the power button (they never
  /// reach the pattern); false for any other event.
  private mutating func pressPowerButton(_ event: TouchEvent) -> Bool {
    let button = tracker.layout.powerButtonRect
    guard !button.isEmpty else { return false }
    switch event.kind {
    case .down:
      guard buttonSlot == nil, !tracker.isActive, LockScreenController.contains(button, event.position) else { return false }
      buttonSlot = event.slot
      buttonPressStart = event.timeMicroseconds
      state.powerPress = 0
      return true
    case .motion:
      guard event.slot == buttonSlot else { return false }
      if !LockScreenController.contains(button, event.position) {
        // Slid off: the press is void, and the finger still draws nothing.
        buttonPressStart = nil
        state.powerPress = nil
      }
      return true
    case .up, .cancel:
      guard event.slot == buttonSlot else { return false }
      buttonSlot = nil
      buttonPressStart = nil
      state.powerPress = nil
      return true
    case .frame:
      return false
    }
  }

  /// When the long press's ring fills its next step (or the press completes).
  private func nextPowerPressStep(start: UInt64, after now: UInt64) -> UInt64 {
    let duration = LockScreenController.powerPressMicroseconds
    let steps = UInt64(LockScreenController.powerPressSteps)
    let elapsed = now > start ? now - start : 0
    let step = min(elapsed * steps / duration + 1, steps)
    // Rounded up, so that the step has been reached at that moment.
    return start + (step * duration + steps - 1) / steps
  }

  private static func contains(_ rect: Rect, _ p: Point) -> Bool {
    p.x >= Fixed16(rect.x) && p.x < Fixed16(rect.maxX) && p.y >= Fixed16(rect.y) && p.y < Fixed16(rect.maxY)
  }
}
