import PatternCore
import Scene
import SystemCalls
import Terminal

/// The lock's loop: one thread, one `poll` (`PollSet`, in `cycle`) over named sources.
/// The sources every mode has are the loop's own: it adds them when a mode begins
/// (`beginMode`) and reads them itself (the signalfd, the door's inputs and timer, the
/// event link; the watchdog is pinged between waits), telling the mode only what they
/// mean (a signal, a remote command). It runs in one mode at a time, each adding only
/// its own sources: the lock (`run`: the timerfd, input, the display, its hotplug
/// monitor and the judge's answer) and, with `kiosk-unit`, the switch to the kiosk and
/// the stay in it (`showKiosk`: input). It knows the display and the input only through their
/// protocols (`Display`, `InputSource`), and the lock only as the `LockScreen` it steps
/// by the rules of `LiveStepRules` (Screen), which the step tests drive too; `replay`
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
  /// Work the lock leaves until its first frame is shown, with that screen's renderer
  /// (the rest of the glyphs: `GlyphCompletion`); run once per lock shown, before any
  /// input is read.
  package var afterFirstFrame: ((LockScreenRenderer) -> Void)?
  /// Whether the first frame tells systemd the service is ready (`run`: units ordered
  /// after the lock start once it is on screen). The password agent says so itself,
  /// once it has no PIN left to ask for.
  package var readyAtFirstFrame = true
  /// The lock's VT while a kiosk is configured, borrowed from the `LockConsole` that
  /// outlives the loop; the kernel's SIGUSR2 is answered on it. Nil without a kiosk.
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
  /// The sources every mode has, as the current mode's `beginMode` added them.
  private var common = CommonSources()

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

  /// Begins a mode: the poll set holds the sources every mode has (the signalfd, and
  /// unless `doorAndEvents` is false the door's and the event link's), added here and
  /// nowhere else; the mode then adds its own.
  package mutating func beginMode(doorAndEvents: Bool = true) {
    set.removeAll()
    common = CommonSources(signals: set.add("signalfd", descriptor: descriptors.signals.rawValue))
    guard doorAndEvents else { return }
    common.door = door.addSources(to: &set)
    common.events = events?.addSources(to: &set)
  }

  /// The one wait of the process: until the mode ends, asks it whether to go on
  /// (`prepare`), waits for its sources (pinging systemd's watchdog meanwhile) and
  /// handles each ready one in the order it was added to `set`: the loop's own sources
  /// here (a signal and a remote command handed to the mode as what they mean, the
  /// door handled whole), the mode's to `drain`.
  ///
  /// - Parameters:
  ///   - prepare: the mode's step before each wait.
  ///   - signal: the mode's answer to a signal; an ending stops the loop there.
  ///   - remote: the mode's answer to the reporter's `lock` or `unlock`.
  ///   - doorMoved: the mode's answer to the door's contact or exit button changing
  ///     (someone is there: the lock wakes a blank screen).
  ///   - drain: the mode's step for a ready source of its own.
  ///   - failed: the ending when poll fails.
  package mutating func cycle<Ending>(
    prepare: (borrowing LoopDescriptors) -> Step<Ending>,
    signal: (Signal) -> Ending?,
    remote: (EventLink.Command) -> Ending?,
    doorMoved: (borrowing LoopDescriptors) -> Ending? = { _ in nil },
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
        if let ending = handle(source, signal: signal, remote: remote, doorMoved: doorMoved, drain: drain) { return ending }
        ready = set.nextReady(after: source)
      }
    }
  }

  /// One ready source: the loop's own handled here, the mode's given to `drain`.
  private func handle<Ending>(
    _ source: PollSet.Source, signal: (Signal) -> Ending?, remote: (EventLink.Command) -> Ending?,
    doorMoved: (borrowing LoopDescriptors) -> Ending?, drain: (PollSet.Source, borrowing LoopDescriptors) -> Ending?
  ) -> Ending? {
    if source == common.signals {
      guard let received = (try? descriptors.signals.next()) ?? nil else { return nil }
      return signal(received)
    }
    if let doorSources = common.door, door.drain(source, doorSources) {
      // The held-open timer is the door's own clock, not someone at the door.
      return source == doorSources.timer ? nil : doorMoved(descriptors)
    }
    if let events, let eventSources = common.events {
      switch events.drain(source, eventSources) {
      case .command(let command): return remote(command)
      case .handled: return nil
      case .notMine: break
      }
    }
    return drain(source, descriptors)
  }
}

/// The sources every mode has, where the current mode's `beginMode` put them.
struct CommonSources {
  var signals: PollSet.Source?
  var door: DoorWatch.Sources?
  var events: EventLink.Sources?
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
