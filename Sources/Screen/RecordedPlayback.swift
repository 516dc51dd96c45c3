import PatternCore
import Scene

/// Drives the lock screen through a recording on the recording's clock: `replay`'s
/// loop, as `run`'s poll loop is the live one. Both step the same `LockScreen`; this
/// one stands in for the timer by running the clock to each moment the picture
/// changes by itself (`LockScreen.nextChange`, which `run` arms its timerfd with), so
/// a replay presents the frames the device presents, at the same moments: the end of
/// every input frame that changed the state, a verdict running out, each tick of a
/// lockout countdown, idle blanking.
///
/// The clock stops with the recording: after the last event only taps waiting for
/// their pause to confirm them and the verdict on screen are let run out (a countdown
/// is not played on to its end: a day-long lockout would be 86,400 pictures nobody
/// asked for). Without pictures the clock jumps from
/// event to event, so a long gap costs nothing; with them it stops at each change (a
/// countdown in days changes once a day), and the play ends early past the limit.
public enum RecordedPlayback {
  /// Which pictures the play presents.
  public enum Pictures: Equatable, Sendable {
    /// None: the display is never shown anything and the clock jumps.
    case none
    /// Every one, stopping once more than `atMost` were presented.
    case each(atMost: Int)
  }

  /// Plays `input` to its end, or to the unlock.
  ///
  /// - Parameters:
  ///   - screen: the lock screen (already locked out, when a lockout was running at
  ///     the start), left as the recording leaves it.
  ///   - judge: decides each finished pattern at its own time.
  ///   - refused: receives each gesture drawn while a lockout refused input, with the
  ///     lockout as it stood when the gesture ended (`.none` once it had run out). The
  ///     screen ignores such a gesture; `replay` still reports it (`locked-out`).
  ///   - unattended: receives each running out of the timeout and the power button's
  ///     long press, with its time. The play shows what follows (a blank, or the
  ///     last picture before a poweroff, where it stops); nothing is switched off.
  ///   - onPicture: receives each presented state and its time.
  /// - Returns: false when the play stopped at the picture limit.
  /// - Throws: the display's failure.
  @discardableResult
  public static func play<D: Display & ~Copyable, J: PatternJudge & ~Copyable>(
    _ input: inout RecordedInput, screen: inout LockScreen<D.Pixel>, display: inout D, judge: inout J,
    pictures: Pictures,
    refused: (GestureOutcome, Lockout) -> Void = { _, _ in },
    unattended: (UnattendedEvent, UInt64) -> Void = { _, _ in },
    onPicture: (LockScreenState, UInt64) -> Void = { _, _ in }
  ) throws(D.Failure) -> Bool {
    var clock = input.startTime
    var presented = 0
    let limit: Int
    switch pictures {
    case .none: limit = Int.max
    case .each(let atMost): limit = atMost
    }
    // What the finger drew whether or not the screen took it, to name the gestures a
    // lockout refused.
    let layout = screen.controller.tracker.layout
    var unfiltered = GestureTracker(layout: layout, minimumDots: screen.controller.tracker.minimumDots)
    var unfilteredBeganInLockout = false
    var failure: D.Failure?
    var timeoutsSeen = screen.controller.timeoutsExpired

    /// Says what the timeout or the power button did at `time`; true once the lock
    /// has ended by switching off or restarting.
    func noteUnattended(at time: UInt64) -> Bool {
      let timeouts = screen.controller.timeoutsExpired
      if timeouts != timeoutsSeen {
        timeoutsSeen = timeouts
        unattended(.timeout(screen.controller.timeoutAction), time)
      } else if screen.requestedPowerAction != nil {
        unattended(.powerButton, time)
      }
      return screen.requestedPowerAction != nil
    }

    /// Presents the state if it changed; false once past the limit.
    func presentIfChanged(at time: UInt64) throws(D.Failure) -> Bool {
      guard pictures != .none, screen.isDirty else { return true }
      let state = screen.controller.state
      _ = try screen.present(on: &display, at: time)
      onPicture(state, time)
      presented += 1
      return presented <= limit
    }

    /// Fires the timer the live loop would have armed, up to `end`; false once the
    /// lock has ended or the limit is passed.
    func runClock(to end: UInt64) throws(D.Failure) -> Bool {
      if pictures == .none {
        // Where the loop would stop along the way changes nothing but pictures.
        if screen.nextChange(after: clock).map({ $0 <= end }) ?? false {
          screen.advance(to: end, judge: &judge)
          clock = max(clock, end)
          if screen.isFinished || noteUnattended(at: end) { return false }
        }
        return true
      }
      var previous: UInt64? = nil
      while let next = screen.nextChange(after: clock), next <= end {
        // The same moment again means nothing moved (a finger resting past the idle
        // time); the next event moves the clock on.
        if next == previous { break }
        previous = next
        screen.advance(to: next, judge: &judge)
        clock = max(clock, next)
        if screen.isFinished { return false }
        let ended = noteUnattended(at: next)
        guard try presentIfChanged(at: next), !ended else { return false }
      }
      return true
    }

    guard try presentIfChanged(at: clock) else { return false }
    var going = true
    while going, let due = input.nextEventTime {
      guard try runClock(to: due) else { return presented <= limit }
      clock = max(clock, due)
      input.drain(upTo: due) { event in
        guard going, case .touch(let touch) = event else { return }
        let wasDrawing = unfiltered.isActive
        // The finger meets the grid where the screen has it for this attempt.
        if !wasDrawing && unfiltered.placement != screen.controller.grid { unfiltered.place(screen.controller.grid) }
        let drawn = unfiltered.handle(touch)
        if !wasDrawing && unfiltered.isActive { unfilteredBeganInLockout = screen.controller.isLockedOut }
        if let drawn, unfilteredBeganInLockout {
          // The clock has already run to this event's time, which is the gesture's end.
          unfilteredBeganInLockout = false
          refused(drawn, screen.controller.lockout(at: touch.timeMicroseconds))
        }
        screen.receive(event, at: touch.timeMicroseconds, judge: &judge)
        if noteUnattended(at: touch.timeMicroseconds) {
          going = false
          do throws(D.Failure) { _ = try presentIfChanged(at: touch.timeMicroseconds) } catch { failure = error }
          return
        }
        guard touch.kind == .frame else { return }
        do throws(D.Failure) {
          going = try presentIfChanged(at: touch.timeMicroseconds)
        } catch {
          failure = error
          going = false
        }
      }
      if let failure { throw failure }
    }
    if !going { return presented <= limit }
    // Taps the recording left waiting are confirmed by their pause, as on the device.
    if let due = screen.controller.tapConfirmationDue { guard try runClock(to: due) else { return presented <= limit } }
    if let ends = screen.controller.feedbackEnds { guard try runClock(to: ends) else { return presented <= limit } }
    // A timeout still to come is played to: an unattended lock is left alone after
    // the last touch, and that is what the recording shows.
    if let due = screen.controller.timeoutDue { _ = try runClock(to: due) }
    return presented <= limit
  }
}
