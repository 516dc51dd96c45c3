import CShim
import Input
import PatternCore
import Scene
import Screen
import SystemCalls

/// The process's only loop: one thread, one `poll` over a signalfd (SIGINT, SIGTERM),
/// a timerfd (when the picture next changes by itself), the input source's fd, the
/// display's fd and its hotplug fd. It knows the display and the input only through
/// their protocols (`Display`, `InputSource`), and the lock only as the `LockScreen`
/// it steps, the same stepper `replay` drives on a recording's clock.
///
/// Queued input is drained before the first poll; each ready fd has a drain step; a
/// frame is rendered only when the state is dirty and no flip is in flight, so at
/// most one flip is queued and the buffer on screen is never drawn into. While the
/// screen is blanked the output is switched off (`IdleBlanking`); input keeps
/// arriving through libinput, which does not depend on the display. Nothing in
/// the per-event and per-frame path allocates (the poll set and shadow buffer are
/// made before the loop).
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
  private var set: [pl_pollfd]

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
    set = [pl_pollfd](repeating: pl_pollfd(fd: -1, events: 0, revents: 0), count: 5)
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
    let start = startMicroseconds ?? pl_monotonic_microseconds()
    let (signalFD, timerFD) = (signals.rawValue, timer.rawValue)
    var firstFlip = true
    var lastInputTime: UInt64 = 0
    // The newest input in the frame being flipped: a flip queued before an event
    // arrived must not be timed against it (that gave negative figures).
    var flippedInputTime: UInt64 = 0
    let watchdog = ServiceManager.watchdogPingInterval()
    var lastPing = start

    func onInput(_ event: InputEvent) {
      if case .touch(let t) = event { lastInputTime = t.timeMicroseconds }
      let now = pl_monotonic_microseconds()
      let wasBlanked = screen.isBlanked
      if screen.receive(event, at: now, judge: &judge) != nil {
        armTimer(now: now)
      } else if wasBlanked && !screen.isBlanked {
        // Woken: the timer was left unarmed while blank; arm it for the next blank.
        armTimer(now: now)
      }
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

    func armTimer(now: UInt64) {
      if let next = screen.nextChange(after: now) { _ = pl_timerfd_arm(timerFD, next > now ? next - now : 1) }
    }

    armTimer(now: pl_monotonic_microseconds())

    do throws(I.Failure) { try input.drain(upTo: pl_monotonic_microseconds(), onInput) } catch { return .input(error) }
    set[0] = pl_pollfd(fd: signalFD, events: Int16(PL_POLLIN), revents: 0)
    set[1] = pl_pollfd(fd: timerFD, events: Int16(PL_POLLIN), revents: 0)
    set[2] = pl_pollfd(fd: input.pollDescriptor, events: Int16(PL_POLLIN), revents: 0)
    set[3] = pl_pollfd(fd: display.pollDescriptor, events: Int16(PL_POLLIN), revents: 0)
    set[4] = pl_pollfd(fd: display.hotplugDescriptor, events: Int16(PL_POLLIN), revents: 0)

    while true {
      // The unlocked picture stays up for the verdict's time, then the loop ends.
      if screen.isFinished && !display.isFlipPending { return .unlocked }
      // Powering off or restarting: once its picture is up, the loop ends without an unlock.
      if let action = screen.requestedPowerAction, !screen.isDirty, !display.isFlipPending { return .power(action) }
      if screen.isDirty && !display.isFlipPending {
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
            if !display.isFlipPending { flipped(at: pl_monotonic_microseconds()) }
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
        let now = pl_monotonic_microseconds()
        if now &- lastPing >= interval {
          ServiceManager.notify("WATCHDOG=1")
          lastPing = now
        }
        timeout = Int32((interval &- (now &- lastPing)) / 1000 + 1)
      }
      let ready = set.withUnsafeMutableBufferPointer { pl_poll($0.baseAddress, Int32($0.count), timeout) }
      if ready < 0 {
        // Not `retryingInterrupts`: after a signal the loop looks at its state again.
        let errno = Errno.current
        if errno == .interrupted { continue }
        return .failed(.poll(errno))
      }
      if set[0].revents != 0 {
        let signal = pl_signalfd_read(signalFD)
        // While locked, a switch away is refused (the lock asks for the one it wants
        // after an unlock) and `patternlock lock` has nothing to do.
        if signal == Int32(PL_SIGUSR2) {
          LockTerminal.answer(lockTerminal, allowingRelease: false)
        } else if signal > 0 && signal != Int32(PL_SIGUSR1) {
          return .signal(signal)
        }
      }
      if set[1].revents != 0, pl_timerfd_read(timerFD) > 0 {
        let now = pl_monotonic_microseconds()
        screen.advance(to: now, judge: &judge)
        armTimer(now: now)
      }
      if set[2].revents != 0 {
        do throws(I.Failure) { try input.drain(upTo: pl_monotonic_microseconds(), onInput) } catch { return .input(error) }
        // Input moves the next idle and timeout moments (and a lifted finger lets the
        // screen blank again): the timer follows them.
        armTimer(now: pl_monotonic_microseconds())
      }
      if set[3].revents != 0 {
        let flipTime: UInt64?
        do throws(D.Failure) { flipTime = try display.completeFlip() } catch { return .display(error) }
        if let flipTime { flipped(at: flipTime) }
      }
      if set[4].revents != 0 {
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
