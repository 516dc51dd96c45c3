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
  /// emulation needs seconds; a Pi well under one).
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
  /// After an unlock: starts the kiosk's unit (nothing happens when it runs already, so
  /// a relock never restarts it), keeps the lock's last frame on screen until the
  /// kiosk's session holds its VT in graphics mode, then hands the display over (DRM
  /// master dropped, the frame left on the CRTC) and switches to the kiosk's VT, where
  /// logind gives the kiosk the display and input. No text console is shown in
  /// between: both VTs are in KD_GRAPHICS throughout.
  ///
  /// Then waits, reading the input devices only to see when they were last used, until
  /// `relock-idle-s` without input, SIGUSR1 (`patternlock lock`), the kiosk's end (its
  /// VT back in text mode) or another VT becoming active; then makes the lock's VT
  /// active again (logind pauses the kiosk's devices) and returns `.relock`.
  mutating func showKiosk<D: LockDisplay & ~Copyable, I: InputSource & ~Copyable>(
    _ kiosk: KioskPlan, lockTerminal: Int32, lockNumber: Int32, display: inout D, input: inout I
  ) -> KioskEnding {
    let systemctl = PowerCommand.program()
    let started = PowerCommand.run([systemctl, "start", "--no-block", kiosk.unit])
    guard started == 0 else {
      Console.error("unlocked, but '\(systemctl) start \(kiosk.unit)' failed (status \(started)); showing the lock again (check kiosk-unit)")
      return .relock
    }
    // The kiosk's session takes its VT (KD_GRAPHICS) once its compositor runs.
    var waited = 0
    while !EventLoop.isGraphical(kiosk.terminal) {
      if waited >= KioskPlan.startMilliseconds {
        Console.error("\(kiosk.unit) did not take tty\(kiosk.terminal) within \(waited / 1000) s (is it running there? 'systemctl status \(kiosk.unit)'); showing the lock again")
        return .relock
      }
      switch wait(milliseconds: 100, input: &input, lockTerminal: lockTerminal) {
      case .signal(let signal): return .signal(signal)
      case .lockAsked: return .relock
      case .input, .tick: waited += 100
      }
    }

    // The switch: the kernel asks the lock's VT first (SIGUSR2); the display is handed
    // over then, as logind does for its sessions, and the switch allowed.
    guard display.canHandOver else { return .relock }
    var stop: Int32 = 0
    let switched = activate(kiosk.terminal, lockTerminal: lockTerminal, handingOver: &display, stop: &stop)
    if stop != 0 { return .signal(stop) }
    guard switched else {
      Console.error("cannot switch to tty\(kiosk.terminal) (kiosk-vt); showing the lock again")
      return .relock
    }
    Console.out("patternlock: showing \(kiosk.unit) on tty\(kiosk.terminal)")

    var lastInput = pl_monotonic_microseconds()
    var why = ""
    while why.isEmpty {
      switch wait(milliseconds: 500, input: &input, lockTerminal: lockTerminal) {
      case .signal(let signal): return .signal(signal)
      case .lockAsked: why = "asked to lock (patternlock lock)"
      case .input: lastInput = pl_monotonic_microseconds()
      case .tick: break
      }
      let now = pl_monotonic_microseconds()
      let active = pl_vt_active(lockTerminal)
      if let idle = kiosk.relockIdleMicroseconds, now &- lastInput >= idle {
        why = "no input for \(idle / 1_000_000) s (relock-idle-s)"
      } else if !EventLoop.isGraphical(kiosk.terminal) {
        why = "\(kiosk.unit) ended"
      } else if active != kiosk.terminal {
        why = "tty\(active) became active"
      }
    }
    Console.out("patternlock: locking again: \(why)")
    if pl_vt_active(lockTerminal) != lockNumber {
      guard pl_vt_activate(lockTerminal, lockNumber) == 0, LockTerminal.waitUntilActive(lockTerminal, lockNumber) else {
        // Fail closed: a kiosk left on screen without the lock would be open to anyone.
        let errno = Errno.current
        _ = PowerCommand.run([systemctl, "stop", kiosk.unit])
        return .failed(.terminal("cannot switch back to tty\(lockNumber) to lock again (\(errno.text)); stopped \(kiosk.unit) rather than leave it open"))
      }
    }
    // The acquire signal, if already queued, is acknowledged here.
    LockTerminal.answer(lockTerminal, allowingRelease: false)
    return .relock
  }

  /// Whether VT `number` is in KD_GRAPHICS: a session's compositor holds it. Opened for
  /// each look and closed at once: a descriptor kept open would be hung up by the kiosk
  /// unit's TTYVHangup (and then answer nothing) and keep its VT from being deallocated.
  static func isGraphical(_ number: Int32) -> Bool {
    let fd = pl_vt_open(number)
    guard fd >= 0 else { return false }
    let tty = FileDescriptor(owning: fd)
    return pl_kd_get_mode(tty.rawValue) == Int32(PL_KD_GRAPHICS)
  }

  /// Asks for the kiosk's VT and allows the switch when the kernel asks the lock's VT,
  /// handing the display over just before. A SIGINT or SIGTERM meanwhile is put in
  /// `stop` (and the switch not made).
  private mutating func activate<D: LockDisplay & ~Copyable>(
    _ number: Int32, lockTerminal: Int32, handingOver display: inout D, stop: inout Int32
  ) -> Bool {
    guard pl_vt_activate(lockTerminal, number) == 0 else { return false }
    for _ in 0..<(LockTerminal.switchMilliseconds / 20) {
      let signal = pl_signalfd_read(signals.rawValue)
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
      pl_sleep_milliseconds(20)
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
      let signal = pl_signalfd_read(signals.rawValue)
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
        try input.drain(upTo: pl_monotonic_microseconds()) { _ in used = true }
      } catch {
        // The lock reads input again when it is shown; a failure shows there.
        return .lockAsked
      }
      if used { return .input }
    }
    return .tick
  }
}
