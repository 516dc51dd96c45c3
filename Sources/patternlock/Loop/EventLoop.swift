import CShim
import Input
import PatternCore
import Scene
import Screen
import SystemCalls

/// The lock's loop: one thread, one `poll` (`PollSet`) over named sources: a signalfd
/// (SIGINT, SIGTERM, and the VT's SIGUSR1/SIGUSR2), a timerfd (when the picture next
/// changes by itself), the input source's descriptor, the display's and its hotplug
/// descriptor. It knows the display and the input only through their protocols
/// (`Display`, `InputSource`), and the lock only as the `LockScreen` it steps by the
/// rules of `LiveDriver` (Screen), which the step tests drive too; `replay` steps the
/// same screen on a recording's clock (`RecordedPlayback`).
///
/// Queued input is drained before the first poll; each ready source has its step. While
/// the screen is blanked the output is switched off (`LockScreen.present`); input keeps
/// arriving through libinput, which does not depend on the display. Nothing in the
/// per-event and per-frame path allocates (the poll set and the frames are made before
/// the loop).
struct EventLoop: ~Copyable {
  /// Figures printed with `--timing`, for the end-to-end test log.
  var printTiming = false
  /// When the process started (CLOCK_MONOTONIC µs), for start-to-first-flip; the
  /// loop's own start when nil.
  var startMicroseconds: UInt64?
  /// The lock's VT while a kiosk is configured (`LockTerminal`), on which the kernel's
  /// SIGUSR2 is answered; -1 without a kiosk.
  var lockTerminal: Int32 = -1
  let signals: FileDescriptor
  private let timer: FileDescriptor
  private var set = PollSet(capacity: 5)

  /// Makes the signalfd and timerfd (blocking SIGINT and SIGTERM first, so they
  /// arrive only through the signalfd and never interrupt a half-drawn frame).
  init() throws(LoopFailure) {
    let signalFD = pl_signalfd_open()
    guard signalFD >= 0 else { throw .cannotCreate("a signalfd", Errno.current) }
    let signals = FileDescriptor(owning: signalFD)
    let timerFD = pl_timerfd_create()
    guard timerFD >= 0 else {
      let errno = Errno.current
      signals.close()
      pl_signals_unblock()
      throw .cannotCreate("a timerfd", errno)
    }
    self.signals = signals
    self.timer = FileDescriptor(owning: timerFD)
  }

  deinit {
    // The descriptors close after this. Signals still pending then are delivered as
    // they would be after closing first: a signalfd does not hold them, the thread does.
    pl_signals_unblock()
  }

  /// Runs until a signal, an unlock or a failure.
  ///
  /// - Parameters:
  ///   - display: where frames go.
  ///   - input: live input.
  ///   - screen: the lock screen, stepped by input and time and presented on `display`.
  ///   - judge: decides each finished pattern.
  mutating func run<D: Display & ~Copyable, I: InputSource & ~Copyable, J: PatternJudge & ~Copyable>(
    display: inout D, input: inout I, screen: inout LockScreen<D.Pixel>, judge: inout J
  ) -> LoopEnding<D.Failure, I.Failure> {
    let start = startMicroseconds ?? MonotonicClock.microseconds()
    let (signalFD, timerFD) = (signals.rawValue, timer.rawValue)
    var driver = LiveDriver()
    var firstFlip = true
    var lastInputTime: UInt64 = 0
    // The newest input in the frame being flipped: a flip queued before an event
    // arrived must not be timed against it (that gave negative figures).
    var flippedInputTime: UInt64 = 0
    let watchdog = ServiceManager.watchdogPingInterval()
    var lastPing = start

    func onInput(_ event: InputEvent) {
      if case .touch(let t) = event { lastInputTime = t.timeMicroseconds }
      driver.receive(event, at: MonotonicClock.microseconds(), screen: &screen, judge: &judge)
      armTimer()
    }

    /// Wakes the loop when the picture next changes by itself.
    func flipped(at flipTime: UInt64) {
      if printTiming && firstFlip {
        Console.out("timing: start-to-first-flip-us=\(flipTime &- start)")
      } else if printTiming && flippedInputTime != 0 {
        Console.out("timing: input-to-flip-us=\(flipTime &- flippedInputTime)")
        flippedInputTime = 0
      }
      // The lock is on screen: now units ordered after it may start.
      if firstFlip { ServiceManager.notify("READY=1") }
      firstFlip = false
    }

    /// Arms the timer when the driver asks for it.
    func armTimer() {
      if let delay = driver.takeTimerDelay() { _ = pl_timerfd_arm(timerFD, delay) }
    }

    driver.start(screen, at: MonotonicClock.microseconds())
    armTimer()

    do throws(I.Failure) { try input.drain(upTo: MonotonicClock.microseconds(), onInput) } catch { return .input(error) }
    // Each source's descriptor, by name; what is done when one is ready follows the wait.
    set.removeAll()
    let signalled = set.add("signalfd", descriptor: signalFD)
    let timed = set.add("timerfd", descriptor: timerFD)
    let inputReady = set.add("input", descriptor: input.pollDescriptor)
    let flipDone = set.add("display", descriptor: display.pollDescriptor)
    let plugged = set.add("hotplug", descriptor: display.hotplugDescriptor)

    while true {
      switch driver.ending(of: screen, on: display) {
      case .unlocked: return .unlocked
      case .power(let action): return .power(action)
      case nil: break
      }
      if driver.shouldPresent(screen, on: display) {
        do throws(D.Failure) {
          let result = try screen.present(on: &display)
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
          return .display(error)
        }
        // A display that shows at once (fbdev, memory) wakes nothing: the picture that
        // ends the lock (a power action's) is up, so the lock ends before the poll.
        if !display.isFlipPending { continue }
      }
      var timeout: Int32 = -1
      if let interval = watchdog {
        let now = MonotonicClock.microseconds()
        if now &- lastPing >= interval {
          ServiceManager.notify("WATCHDOG=1")
          lastPing = now
        }
        timeout = Int32((interval &- (now &- lastPing)) / 1000 + 1)
      }
      do throws(Errno) {
        guard try set.wait(milliseconds: timeout) != nil else { continue }
      } catch {
        return .failed(.poll(error))
      }
      if set.isReady(signalled) {
        let signal = resultRetryingInterrupts { pl_signalfd_read(signalFD) }
        // While locked, a switch away is refused (the lock asks for the one it wants
        // after an unlock) and `patternlock lock` has nothing to do.
        if signal == Int32(PL_SIGUSR2) {
          LockTerminal.answer(lockTerminal, allowingRelease: false)
        } else if signal > 0 && signal != Int32(PL_SIGUSR1) {
          return .signal(signal)
        }
      }
      if set.isReady(timed), resultRetryingInterrupts({ pl_timerfd_read(timerFD) }) > 0 {
        driver.timerFired(at: MonotonicClock.microseconds(), screen: &screen, judge: &judge)
        armTimer()
      }
      if set.isReady(inputReady) {
        do throws(I.Failure) { try input.drain(upTo: MonotonicClock.microseconds(), onInput) } catch { return .input(error) }
        driver.inputTaken(screen, at: MonotonicClock.microseconds())
        armTimer()
      }
      if set.isReady(flipDone) {
        let flipTime: UInt64?
        do throws(D.Failure) { flipTime = try display.completeFlip() } catch { return .display(error) }
        if let flipTime { flipped(at: flipTime) }
      }
      if set.isReady(plugged) {
        do throws(D.Failure) {
          if try display.hotplug() { screen.invalidate() }
        } catch {
          return .display(error)
        }
      }
    }
  }
}

/// Why `EventLoop.run` ended; the failures stay typed until `main` prints them.
enum LoopEnding<DisplayFailure: DescribedError, InputFailure: DescribedError> {
  case signal(Int32)
  case unlocked
  /// The timeout or the power button asked to switch off or restart: never an unlock.
  case power(PowerAction)
  case display(DisplayFailure)
  case input(InputFailure)
  case failed(LoopFailure)
}

/// The loop's own system calls failing.
enum LoopFailure: DescribedError {
  case cannotCreate(String, Errno)
  case poll(Errno)

  var message: String {
    switch self {
    case .cannotCreate(let what, let errno): return "cannot create \(what): \(errno.text)"
    case .poll(let errno): return "poll failed: \(errno.text)"
    }
  }
}
