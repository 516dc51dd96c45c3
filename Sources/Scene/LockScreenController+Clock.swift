import PatternCore

/// What the clock alone changes: verdicts ending, countdowns ticking, the unattended
/// timeout, idle dimming and blanking, and when the loop must wake for the next of them.
extension LockScreenController {
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
    if let dim = dimAfterMicroseconds, !isDimmed, !isBlanked, !tracker.isActive, buttonSlot == nil {
      next = min(next ?? .max, (lastActivity ?? now) + dim)
    }
    if let timeout = timeoutMicroseconds, !timeoutSpent { next = min(next ?? .max, (lastActivity ?? now) + timeout) }
    if let start = buttonPressStart { next = min(next ?? .max, nextPowerPressStep(start: start, after: now)) }
    if let due = tapConfirmationDue { next = min(next ?? .max, max(due, now)) }
    // An answer awaited from another process: the loop wakes when it comes, and at its
    // time limit at the latest.
    if let awaited = awaitedAnswer { return min(max(awaited.due, now), next ?? awaited.due) }
    // A verdict waiting for its first frame has no end yet: the present that shows it
    // sets one, and the driver arms its timer then.
    if verdictAwaitsFrame { return next }
    if let ends = feedbackEnds { return min(ends, next ?? ends) }
    if case .storageError(let retryAt, _) = refusal { return min(max(retryAt, now), next ?? retryAt) }
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

  /// Someone is there at `time` without touching the lock (the door opened, its exit
  /// button was pressed): a blank or dimmed screen lights up, and the idle and
  /// unattended times start again, as on input; nothing else changes.
  public mutating func noteActivity(at time: UInt64) {
    _ = wake(at: time)
  }

  /// Notes input at `time`; when the screen was blank, wakes it and reports that the
  /// input was used up by waking. A dimmed screen lights up and the input counts:
  /// its picture was visible, as on a phone.
  mutating func wake(at time: UInt64) -> Bool {
    lastActivity = time
    timeoutSpent = false
    isDimmed = false
    state.dimmed = false
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
    if let ends = feedbackEnds, !verdictAwaitsFrame, time >= ends {
      feedbackEnds = nil
      tracker.reset()
      keyed.removeAll()
      moveGridForNextAttempt()
      state = LockScreenState(prompt: idlePrompt, pointer: state.pointer, grid: grid)
    }
    guard feedbackEnds == nil, let refusal else { return }
    switch refusal {
    case .permanent:
      state = LockScreenState(appearance: .wrong, prompt: .lockedUntilReset, pointer: state.pointer, grid: grid)
    case .storageError(_, let prompt):
      state = LockScreenState(appearance: .wrong, prompt: prompt, pointer: state.pointer, grid: grid)
    case .until(let ends):
      if time >= ends {
        self.refusal = nil
        state = LockScreenState(prompt: idlePrompt, pointer: state.pointer, grid: grid)
      } else {
        let seconds = Int((ends - time + 999_999) / 1_000_000)
        state = LockScreenState(appearance: .wrong, prompt: PromptText.tryAgain(in: seconds), pointer: state.pointer, grid: grid)
      }
    }
  }

  /// What the clock alone brings about, in order: the power button's long press, the
  /// unattended timeout, idle blanking, idle dimming (only while not blank, so a dim
  /// time at or past the blank time never dims).
  mutating func runClockedActions(at time: UInt64) {
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
    if let dim = dimAfterMicroseconds, !isBlanked, !isDimmed, !tracker.isActive, buttonSlot == nil, let last = lastActivity,
      time >= last + dim
    {
      isDimmed = true
    }
    if isBlanked { isDimmed = false }
    state.blanked = isBlanked
    state.dimmed = isDimmed
  }

  /// Ends the lock without opening it: input is ignored and the picture says what
  /// comes (shown, not blank, for the last frame and for `replay`).
  mutating func request(_ action: PowerAction) {
    requestedPowerAction = action
    tracker.reset()
    keyed.removeAll()
    buttonSlot = nil
    buttonPressStart = nil
    feedbackEnds = nil
    verdictAwaitsFrame = false
    awaitedAnswer = nil
    isBlanked = false
    isDimmed = false
    state = LockScreenState(prompt: PromptText.announcing(action), grid: grid)
  }
}
