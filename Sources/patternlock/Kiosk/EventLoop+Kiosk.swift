import CShim
import PatternCore
import Screen
import SystemCalls

/// The kiosk an unlock opens (`kiosk-unit`, `kiosk-vt`, `relock-idle-s`).
struct KioskPlan {
  /// The systemd unit that runs the kiosk in its own logind session on `terminal`.
  var unit: String
  /// The kiosk's VT (the unit's `TTYPath=`).
  var terminal: Int32
  /// Lock again after this long without input in the kiosk; nil never.
  var relockIdleMicroseconds: UInt64?

  /// How long the kiosk may take to hold its VT after it was started (cage under
  /// emulation needs seconds; a Pi well under one); the lock comes back after that.
  static let startMilliseconds = 90_000
}

/// How a stay in the kiosk ended.
enum KioskEnding {
  /// The lock is to be shown again: the lock's VT is active again (or never stopped
  /// being); the display is taken back when the lock presents its first frame.
  case relock
  /// SIGINT or SIGTERM.
  case signal(Int32)
  /// The lock's VT could not be made active again: the kiosk was stopped.
  case failed(KioskFailure)
}

extension EventLoop {
  /// After an unlock: puts the kiosk's VT in graphics mode, hands the display over (DRM
  /// master dropped, the lock's last frame left on the CRTC), switches to that VT and
  /// starts the kiosk's unit there (nothing happens when it runs already, so a relock
  /// never restarts it); logind gives the kiosk the display and input, as its VT is in
  /// front. No text console is shown in between: both VTs stay in KD_GRAPHICS, and the
  /// lock's frame stays until the kiosk sets its own.
  ///
  /// Then waits, reading the input devices only to see when they were last used, until
  /// `relock-idle-s` without input, SIGUSR1 (`patternlock lock`), the kiosk's end (its
  /// session lets go of its VT), a kiosk that never takes its VT, or another VT becoming
  /// active; then makes the lock's VT active again (logind pauses the kiosk's devices)
  /// and returns `.relock`.
  mutating func showKiosk<D: LockDisplay & ~Copyable, I: InputSource & ~Copyable>(
    _ kiosk: KioskPlan, lockTerminal: Int32, lockNumber: Int32, display: inout D, input: inout I
  ) -> KioskEnding {
    guard display.canHandOver else {
      Console.error("unlocked, but kiosk-unit needs a DRM display (this one is fbdev); showing the lock again")
      return .relock
    }
    // The kiosk's VT goes to graphics mode before it is shown: the switch then draws no
    // console there, nor does anything until the kiosk's session holds it.
    guard EventLoop.setGraphics(kiosk.terminal, true) else {
      Console.error("unlocked, but cannot use /dev/tty\(kiosk.terminal) (kiosk-vt): \(Errno.current.text); showing the lock again")
      return .relock
    }
    // Thawed only now, after the judged unlock and just before its VT is in front: until
    // here it stayed frozen, whatever happened to the lock meanwhile.
    if let why = KioskFreezer.open(kiosk) {
      _ = EventLoop.setGraphics(kiosk.terminal, false)
      Console.error("unlocked, but \(why); showing the lock again")
      return .relock
    }
    var stop: Int32 = 0
    let switched = activate(kiosk.terminal, lockTerminal: lockTerminal, handingOver: &display, stop: &stop)
    guard switched else {
      _ = KioskFreezer.close(kiosk)
      _ = EventLoop.setGraphics(kiosk.terminal, false)
      if stop != 0 { return .signal(stop) }
      Console.error("unlocked, but cannot switch to tty\(kiosk.terminal) (kiosk-vt); showing the lock again")
      return .relock
    }
    // Started only now, its VT in front: the compositor's session is active from its
    // start, and it takes the display that was just given up. Until it draws, the
    // lock's last picture stays on the CRTC.
    let systemctl = PowerCommand.program()
    let started = PowerCommand.run([systemctl, "start", "--no-block", kiosk.unit])
    var why = ""
    if started != 0 {
      why = "'\(systemctl) start \(kiosk.unit)' failed (status \(started)); check kiosk-unit"
    } else {
      Console.out("patternlock: showing \(kiosk.unit) on tty\(kiosk.terminal)")
    }

    var lastInput = MonotonicClock.microseconds()
    let shown = lastInput
    var held = false
    var stopped: Int32 = 0
    while why.isEmpty {
      switch wait(milliseconds: 500, input: &input, lockTerminal: lockTerminal) {
      case .signal(let signal):
        // Stopped while the kiosk is open (`systemctl stop patternlock`): no lock will
        // come back over it, so it is closed as for a relock before the process ends.
        stopped = signal
        why = "stopped by signal \(signal)"
      case .lockAsked: why = "asked to lock (patternlock lock)"
      case .input: lastInput = MonotonicClock.microseconds()
      case .tick: break
      }
      let now = MonotonicClock.microseconds()
      let state = EventLoop.terminalState(kiosk.terminal)
      let active = resultRetryingInterrupts { pl_vt_active(lockTerminal) }
      // Idle time counts from when the kiosk holds its VT: under emulation cage takes
      // tens of seconds to start, and locking again meanwhile would take its VT from a
      // compositor that cannot start without it.
      if state.held && !held {
        held = true
        lastInput = now
      }
      if !why.isEmpty {
        break
      } else if let idle = kiosk.relockIdleMicroseconds, now &- lastInput >= idle {
        why = "no input for \(idle / 1_000_000) s (relock-idle-s)"
      } else if held && !(state.held && state.graphics) {
        why = "\(kiosk.unit) ended"
      } else if !held && now &- shown >= UInt64(KioskPlan.startMilliseconds) * 1000 {
        why = "\(kiosk.unit) did not take tty\(kiosk.terminal) within \(KioskPlan.startMilliseconds / 1000) s ('systemctl status \(kiosk.unit)')"
      } else if active != kiosk.terminal {
        why = "tty\(active) became active"
      }
    }
    Console.out("patternlock: locking again: \(why)")
    // Frozen before its VT goes to the back: from here on, a lock that dies leaves no
    // live kiosk for a VT switch to show.
    _ = KioskFreezer.close(kiosk)
    // The kernel ignores switches away from a VT in graphics mode unless a process holds
    // it (the kiosk's session does): without one, it goes back to text mode first.
    if !EventLoop.terminalState(kiosk.terminal).held { _ = EventLoop.setGraphics(kiosk.terminal, false) }
    if resultRetryingInterrupts({ pl_vt_active(lockTerminal) }) != lockNumber {
      guard resultRetryingInterrupts({ pl_vt_activate(lockTerminal, lockNumber) }) == 0, LockTerminal.waitUntilActive(lockTerminal, lockNumber) else {
        // Fail closed: a kiosk left on screen without the lock would be open to anyone.
        let errno = Errno.current
        _ = PowerCommand.run([systemctl, "stop", "--no-block", kiosk.unit])
        return .failed(.terminal("cannot switch back to tty\(lockNumber) to lock again (\(errno.text)); stopping \(kiosk.unit) rather than leave it open"))
      }
    }
    // The acquire signal, if already queued, is acknowledged here.
    LockTerminal.answer(lockTerminal, allowingRelease: false)
    return stopped != 0 ? .signal(stopped) : .relock
  }

  /// Whether VT `number` is in graphics mode, and whether a process holds it in
  /// VT_PROCESS mode (the kiosk's logind session does while its compositor runs).
  /// Opened for each look and closed at once: a descriptor kept open would be hung up
  /// by the kiosk unit's TTYVHangup (and answer nothing after).
  static func terminalState(_ number: Int32) -> (graphics: Bool, held: Bool) {
    let fd = resultRetryingInterrupts { pl_vt_open(number) }
    guard fd >= 0 else { return (false, false) }
    let tty = FileDescriptor(owning: fd)
    let graphics = resultRetryingInterrupts { pl_kd_get_mode(fd) } == Int32(PL_KD_GRAPHICS)
    let held = resultRetryingInterrupts { pl_vt_is_held(fd) } == 1
    tty.close()
    return (graphics, held)
  }

  /// Puts VT `number` in graphics or text mode; false when it cannot be opened or set.
  static func setGraphics(_ number: Int32, _ graphics: Bool) -> Bool {
    let fd = resultRetryingInterrupts { pl_vt_open(number) }
    guard fd >= 0 else { return false }
    let tty = FileDescriptor(owning: fd)
    let set = resultRetryingInterrupts { pl_kd_set_mode(fd, Int32(graphics ? PL_KD_GRAPHICS : PL_KD_TEXT)) } == 0
    tty.close()
    return set
  }

  /// Asks for the kiosk's VT and allows the switch when the kernel asks the lock's VT,
  /// handing the display over just before. A SIGINT or SIGTERM meanwhile is put in
  /// `stop` (and the switch not made).
  private mutating func activate<D: LockDisplay & ~Copyable>(
    _ number: Int32, lockTerminal: Int32, handingOver display: inout D, stop: inout Int32
  ) -> Bool {
    guard resultRetryingInterrupts({ pl_vt_activate(lockTerminal, number) }) == 0 else { return false }
    for _ in 0..<(LockTerminal.switchMilliseconds / 20) {
      let signalFD = signals.rawValue
      let signal = resultRetryingInterrupts { pl_signalfd_read(signalFD) }
      if signal == Int32(PL_SIGINT) || signal == Int32(PL_SIGTERM) {
        stop = signal
        return false
      }
      if signal == Int32(PL_SIGUSR2) {
        display.handOver()
        if LockTerminal.answer(lockTerminal, allowingRelease: true) {
          return LockTerminal.waitUntilActive(lockTerminal, number)
        }
      }
      sleep(milliseconds: 20)
    }
    return false
  }

  private enum KioskWake {
    case signal(Int32)
    case lockAsked
    case input
    case tick
  }

  /// Waits up to `milliseconds` for a signal or input, pinging the watchdog.
  private mutating func wait<I: InputSource & ~Copyable>(
    milliseconds: Int32, input: inout I, lockTerminal: Int32
  ) -> KioskWake {
    ServiceManager.notify("WATCHDOG=1")
    var fds = [
      pl_pollfd(fd: signals.rawValue, events: Int16(PL_POLLIN), revents: 0),
      pl_pollfd(fd: input.pollDescriptor, events: Int16(PL_POLLIN), revents: 0),
    ]
    let ready = fds.withUnsafeMutableBufferPointer { pl_poll($0.baseAddress, 2, milliseconds) }
    guard ready > 0 else { return .tick }
    if fds[0].revents != 0 {
      let signalFD = signals.rawValue
      let signal = resultRetryingInterrupts { pl_signalfd_read(signalFD) }
      if signal == Int32(PL_SIGUSR1) { return .lockAsked }
      // Someone else made the lock's VT active (or asks to leave it): it shows the lock.
      if signal == Int32(PL_SIGUSR2) {
        LockTerminal.answer(lockTerminal, allowingRelease: false)
        return .lockAsked
      }
      if signal > 0 { return .signal(signal) }
    }
    if fds[1].revents != 0 {
      var used = false
      do throws(I.Failure) {
        try input.drain(upTo: MonotonicClock.microseconds()) { _ in used = true }
      } catch {
        // The lock reads input again when it is shown; a failure shows there.
        return .lockAsked
      }
      if used { return .input }
    }
    return .tick
  }
}
