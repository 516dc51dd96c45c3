import CommandKit
import Input
import PatternCore
import Scene
import Screen
import SystemCalls
import Terminal

extension EventLoop {
  /// The lock mode: runs until a signal, an unlock or a failure.
  ///
  /// Queued input is drained before the first wait; each ready source has its drain
  /// step. While the screen is blanked the output is switched off (`LockScreen.present`);
  /// input keeps arriving through libinput, which does not depend on the display.
  ///
  /// - Parameters:
  ///   - display: where frames go.
  ///   - input: live input.
  ///   - screen: the lock screen, stepped by input and time and presented on `display`.
  ///   - judge: decides each finished pattern.
  package mutating func run<D: Display & ~Copyable, I: InputSource & ~Copyable, J: PatternJudge & ~Copyable>(
    display: inout D, input: inout I, screen: inout LockScreen<D.Pixel>, judge: inout J
  ) -> LoopEnding<D.Failure, I.Failure> {
    // The steps below are closures the loop calls while it holds `self`: they see only
    // these copies and the descriptors it lends them.
    let start = startMicroseconds ?? MonotonicClock.microseconds()
    let (printTiming, lockTerminal, afterFirstFrame) = (self.printTiming, self.lockTerminal, self.afterFirstFrame)
    let readyAtFirstFrame = self.readyAtFirstFrame
    var rules = LiveStepRules()
    var firstFlip = true
    var glyphsCompleted = false
    var lastInputTime: UInt64 = 0
    // The newest input in the frame being flipped: a flip queued before an event
    // arrived must not be timed against it (that gave negative figures).
    var flippedInputTime: UInt64 = 0
    // Finger to screen over the latest flips, said once an attempt and at the end.
    var latency = FlipLatency()

    func sayLatency() {
      _ = latency.withLine { line in try? FileDescriptor.standardOutput.writeAll(line) }
    }

    func onInput(_ event: InputEvent) {
      if case .touch(let t) = event { lastInputTime = t.timeMicroseconds }
      if rules.receive(event, at: MonotonicClock.microseconds(), screen: &screen, judge: &judge) != nil { sayLatency() }
    }

    func flipped(at flipTime: UInt64) {
      if firstFlip {
        if printTiming { Console.out("timing: start-to-first-flip-us=\(flipTime &- start)") }
      } else if flippedInputTime != 0 && flipTime >= flippedInputTime {
        // Both on CLOCK_MONOTONIC: the input's kernel time, the flip's DRM event time.
        latency.record(microseconds: flipTime &- flippedInputTime)
        if printTiming { Console.out("timing: input-to-flip-us=\(flipTime &- flippedInputTime)") }
      }
      flippedInputTime = 0
      // The lock is on screen: now units ordered after it may start.
      if firstFlip && readyAtFirstFrame { ServiceManager.notify("READY=1") }
      firstFlip = false
    }

    /// Wakes the loop when the picture next changes by itself, when the rules ask.
    func armTimer(_ timer: borrowing TimerDescriptor) {
      // A timer that cannot be armed leaves the picture until the next input; the
      // watchdog still ends a lock that no longer moves at all.
      if let delay = rules.takeTimerDelay() { _ = try? timer.arm(microseconds: delay) }
    }

    rules.start(screen, at: MonotonicClock.microseconds())
    do throws(I.Failure) { try input.drain(upTo: MonotonicClock.microseconds(), onInput) } catch { return .input(error) }
    armTimer(descriptors.timer)

    beginMode()
    let timed = set.add("timerfd", descriptor: descriptors.timer.rawValue)
    let inputReady = set.add("input", descriptor: input.pollDescriptor)
    let flipDone = set.add("display", descriptor: display.pollDescriptor)
    let plugged = set.add("hotplug", descriptor: display.hotplugDescriptor)
    let answered = set.add("judge-answer", descriptor: judge.answerDescriptor)
    let events = self.events
    if let held = events?.takeHeldBrightness(), let events {
      events.brightnessTaken(asked: held, applied: display.setBrightness(percent: events.clamped(brightness: held)))
    }
    events?.note(brightness: display.brightnessPercent)
    events?.announce(unlocked: false)

    /// What a look at the outputs found, applied to the lock screen.
    func apply(_ change: OutputChange) {
      switch change {
      case .unchanged: break
      case .redrawAll: screen.invalidate()
      case .lost(let reason): Console.error(reason)
      case .resized(let renderer):
        screen.relayOut(renderer)
        Console.out("patternlock: the outputs changed: the lock is drawn at \(display.width)x\(display.height)")
      }
    }

    /// Before each wait: the outputs' changes, the lock's end, else a frame when one is due.
    func prepare(_ loop: borrowing LoopDescriptors) -> Step<LoopEnding<D.Failure, I.Failure>> {
      // Read with the display's or the input's events (one connection for both, in
      // the session lock): applied here, whichever drained it.
      if display.outputsChanged {
        do throws(D.Failure) { apply(try display.hotplug()) } catch { return .end(.display(error)) }
      }
      while true {
        // The glyphs the first screen left (`afterFirstFrame`), once its picture is up
        // and before any input is read: the devices' events wait in the kernel meanwhile.
        // Here, in the loop, so a display that shows at once (fbdev) does it before its
        // first wait.
        if !firstFlip && !glyphsCompleted {
          glyphsCompleted = true
          afterFirstFrame?(screen.renderer)
        }
        switch rules.ending(of: screen, on: display) {
        case .unlocked: return .end(.unlocked)
        case .power(let action): return .end(.power(action))
        case nil: break
        }
        guard rules.shouldPresent(screen, on: display) else { return .wait(milliseconds: -1) }
        do throws(D.Failure) {
          let presentedAt = MonotonicClock.microseconds()
          let result = try screen.present(on: &display, at: presentedAt)
          rules.presented(screen, at: presentedAt)
          armTimer(loop.timer)
          if let notice = display.takeNotice() { Console.error(notice) }
          if let refusal = result.switchOffRefusal {
            // Said once: from now on the screen blanks with black frames.
            Console.error("cannot switch the display off when idle (\(refusal.message)); blanking it with black frames instead")
          }
          if result.presented {
            // What this flip changed, for measuring what a slow link carries per flip.
            if printTiming {
              let d = result.damage
              Console.out("timing: flip-damage=\(d.width)x\(d.height)+\(d.x)+\(d.y)")
            }
            flippedInputTime = lastInputTime
            lastInputTime = 0
            // A frame that queued no flip (fbdev; KMS updating in place) is shown at once.
            if !display.isFlipPending { flipped(at: MonotonicClock.microseconds()) }
          }
        } catch {
          return .end(.display(error))
        }
        // A display that shows at once (fbdev, memory) wakes nothing: the picture that
        // ends the lock (a power action's) is up, so the lock ends before the wait.
        if display.isFlipPending { return .wait(milliseconds: -1) }
      }
    }

    /// A signal: SIGINT and SIGTERM end the lock. While locked, a switch away is refused
    /// (the lock asks for the one it wants after an unlock) and `patternlock lock` has
    /// nothing to do.
    func signalled(_ signal: Signal) -> LoopEnding<D.Failure, I.Failure>? {
      if signal == .user2 {
        lockTerminal?.answerSwitchSignal(allowingRelease: false)
      } else if signal != .user1 {
        return .signal(signal.rawValue)
      }
      return nil
    }

    /// The reporter's command.
    func remote(_ command: EventLink.Command) -> LoopEnding<D.Failure, I.Failure>? {
      switch command {
      case .unlock:
        // Opened as a judged unlock opens: the kiosk, exec, or exit 0.
        if events?.remoteUnlockOpens() == true { return .unlocked }
      case .lock:
        // Locked already: said again, so the reporter's state is right.
        events?.announce(unlocked: false)
      case .brightness(let asked):
        guard let events else { break }
        events.brightnessTaken(asked: asked, applied: display.setBrightness(percent: events.clamped(brightness: asked)))
      }
      return nil
    }

    /// A ready source of the lock's own.
    func drain(_ source: PollSet.Source, _ loop: borrowing LoopDescriptors) -> LoopEnding<D.Failure, I.Failure>? {
      switch source {
      case timed:
        guard (try? loop.timer.expirations()) ?? 0 > 0 else { return nil }
        rules.timerFired(at: MonotonicClock.microseconds(), screen: &screen, judge: &judge)
        armTimer(loop.timer)
      case inputReady:
        do throws(I.Failure) { try input.drain(upTo: MonotonicClock.microseconds(), onInput) } catch { return .input(error) }
        rules.inputTaken(screen, at: MonotonicClock.microseconds())
        armTimer(loop.timer)
      case flipDone:
        let flipTime: UInt64?
        do throws(D.Failure) { flipTime = try display.completeFlip() } catch { return .display(error) }
        if let flipTime { flipped(at: flipTime) }
      case answered:
        rules.answerReady(at: MonotonicClock.microseconds(), screen: &screen, judge: &judge)
        armTimer(loop.timer)
      case plugged:
        do throws(D.Failure) { apply(try display.hotplug()) } catch { return .display(error) }
      default:
        break
      }
      return nil
    }

    /// The door's contact or exit button changed: someone is there, so a blank screen
    /// lights up and the idle time starts again.
    func doorMoved(_ loop: borrowing LoopDescriptors) -> LoopEnding<D.Failure, I.Failure>? {
      rules.activity(at: MonotonicClock.microseconds(), screen: &screen)
      armTimer(loop.timer)
      return nil
    }

    let ending = cycle(
      prepare: prepare, signal: signalled, remote: remote, doorMoved: doorMoved, drain: drain, failed: { .failed(.poll($0)) })
    sayLatency()
    return ending
  }
}
