import PatternCore
import SystemCalls
import Terminal

/// The lock's loop: one thread, one `poll` (`PollSet`, in `cycle`) over named sources.
/// It runs in one mode at a time, each adding its own sources and draining them when
/// ready: the lock (`run`: the signalfd, the timerfd, input, the display and its
/// hotplug monitor) and, with `kiosk-unit`, the stay in the kiosk (`showKiosk`: the
/// signalfd, then input too). It knows the display and the input only through their
/// protocols (`Display`, `InputSource`), and the lock only as the `LockScreen` it steps
/// by the rules of `LiveDriver` (Screen), which the step tests drive too; `replay`
/// steps the same screen on a recording's clock (`RecordedPlayback`).
///
/// Nothing in the per-event and per-frame path allocates: the poll set and the frames
/// are made before the loop, and each mode's steps are closures on the stack.
package struct EventLoop: ~Copyable {
  /// Figures printed with `--timing`, for the end-to-end test log.
  package var printTiming = false
  /// When the process started (CLOCK_MONOTONIC µs), for start-to-first-flip; the
  /// loop's own start when nil.
  package var startMicroseconds: UInt64?
  /// The lock's VT while a kiosk is configured (`LockTerminal`), on which the kernel's
  /// SIGUSR2 is answered; nil without a kiosk.
  package var lockTerminal: TerminalControl?
  /// The descriptors every mode has.
  package let descriptors: LoopDescriptors
  package var set = PollSet(capacity: 12)
  /// The door's contact, exit button and held-open timer, in the lock's and the
  /// kiosk's modes alike (an exit button works whatever is on screen).
  package var door = DoorWatch()
  /// The running lock's link to the event socket (`patternlock mqtt`), in both modes;
  /// nil while enrolling (a remote command has no say over an enrolment).
  package var events: EventLink?
  /// When the watchdog was last pinged, across modes; nil before the first wait.
  private var lastPing: UInt64?

  /// Makes the signalfd and timerfd (blocking SIGINT and SIGTERM first, so they
  /// arrive only through the signalfd and never interrupt a half-drawn frame).
  package init() throws(LoopFailure) {
    let signals: SignalDescriptor
    do throws(Errno) {
      signals = try SignalDescriptor()
    } catch {
      throw .cannotCreate("a signalfd", error)
    }
    let timer: TimerDescriptor
    do throws(Errno) {
      timer = try TimerDescriptor()
    } catch {
      // `signals` closes here and unblocks SIGINT and SIGTERM again.
      throw .cannotCreate("a timerfd", error)
    }
    descriptors = LoopDescriptors(signals: signals, timer: timer)
  }

  /// What a mode says before each wait.
  package enum Step<Ending> {
    /// The mode is over.
    case end(Ending)
    /// Wait until a source is ready, at most this long (-1: no limit of the mode's own).
    case wait(milliseconds: Int32)
  }

  /// The one wait of the process: until the mode ends, asks it whether to go on
  /// (`prepare`), waits for its sources (pinging systemd's watchdog meanwhile) and
  /// hands each ready one to `drain`, in the order they were added to `set`.
  ///
  /// - Parameters:
  ///   - prepare: the mode's step before each wait.
  ///   - drain: the mode's step for a ready source; an ending stops the loop there.
  ///   - failed: the ending when poll fails.
  package mutating func cycle<Ending>(
    prepare: (borrowing LoopDescriptors) -> Step<Ending>,
    drain: (PollSet.Source, borrowing LoopDescriptors) -> Ending?,
    failed: (Errno) -> Ending
  ) -> Ending {
    let watchdog = ServiceManager.watchdogPingInterval()
    while true {
      var timeout: Int32
      switch prepare(descriptors) {
      case .end(let ending): return ending
      case .wait(let milliseconds): timeout = milliseconds
      }
      if let interval = watchdog {
        let now = MonotonicClock.microseconds()
        var last = lastPing ?? startMicroseconds ?? now
        if now &- last >= interval {
          ServiceManager.notify("WATCHDOG=1")
          last = now
        }
        lastPing = last
        let untilPing = Int32((interval &- (now &- last)) / 1000 + 1)
        timeout = timeout < 0 ? untilPing : min(timeout, untilPing)
      }
      do throws(Errno) {
        // nil: a signal cut the wait short; the mode looks at its state again.
        guard try set.wait(milliseconds: timeout) == true else { continue }
      } catch {
        return failed(error)
      }
      var ready = set.nextReady(after: nil)
      while let source = ready {
        if let ending = drain(source, descriptors) { return ending }
        ready = set.nextReady(after: source)
      }
    }
  }
}

/// The loop's own descriptors, lent to each mode's steps.
package struct LoopDescriptors: ~Copyable {
  /// SIGINT, SIGTERM, and the VT's SIGUSR1/SIGUSR2.
  package let signals: SignalDescriptor
  /// When the picture next changes by itself.
  package let timer: TimerDescriptor
}

/// Why `EventLoop.run` ended; the failures stay typed until `main` prints them.
package enum LoopEnding<DisplayFailure: DescribedError, InputFailure: DescribedError> {
  case signal(Int32)
  case unlocked
  /// The timeout or the power button asked to switch off or restart: never an unlock.
  case power(PowerAction)
  case display(DisplayFailure)
  case input(InputFailure)
  case failed(LoopFailure)
}

/// The loop's own system calls failing.
package enum LoopFailure: DescribedError {
  case cannotCreate(String, Errno)
  case poll(Errno)

  package var message: String {
    switch self {
    case .cannotCreate(let what, let errno): return "cannot create \(what): \(errno.text)"
    case .poll(let errno): return "poll failed: \(errno.text)"
    }
  }
}
