import CommandKit
import PatternCore
import Screen
import SystemCalls
import Terminal

/// The kiosk an unlock opens (`kiosk-unit`, `kiosk-vt`, `relock-idle-s`).
package struct KioskPlan {
  /// The systemd unit that runs the kiosk in its own logind session on `terminal`.
  package var unit: String
  /// The kiosk's VT (the unit's `TTYPath=`).
  package var terminal: TerminalNumber
  /// Lock again after this long without input in the kiosk; nil never.
  package var relockIdleMicroseconds: UInt64?

  /// How long the kiosk may take to hold its VT after it was started (cage under
  /// emulation needs seconds; a Pi well under one); the lock comes back after that.
  package static let startMilliseconds = 90_000
}

/// How a stay in the kiosk ended.
package enum KioskEnding {
  /// The lock is to be shown again: the lock's VT is active again (or never stopped
  /// being); the display is taken back when the lock presents its first frame.
  case relock
  /// SIGINT or SIGTERM.
  case signal(Int32)
  /// The lock's VT could not be made active again: the kiosk was stopped.
  case failed(KioskFailure)
}

extension EventLoop {
  /// The kiosk mode, after an unlock: puts the kiosk's VT in graphics mode, hands the
  /// display over (DRM master dropped, the lock's last frame left on the CRTC), switches
  /// to that VT and starts the kiosk's unit there (nothing happens when it runs already,
  /// so a relock never restarts it); logind gives the kiosk the display and input, as
  /// its VT is in front. No text console is shown in between: both VTs stay in
  /// KD_GRAPHICS, and the lock's frame stays until the kiosk sets its own.
  ///
  /// Then waits, reading the input devices only to see when they were last used, until
  /// `relock-idle-s` without input, SIGUSR1 (`patternlock lock`), the kiosk's end (its
  /// session lets go of its VT), a kiosk that never takes its VT, or another VT becoming
  /// active; then makes the lock's VT active again (logind pauses the kiosk's devices)
  /// and returns `.relock`.
  package mutating func showKiosk<D: Display & ~Copyable, I: InputSource & ~Copyable>(
    _ kiosk: KioskPlan, lockTerminal: LockTerminal.Lent, display: inout D, input: inout I
  ) -> KioskEnding {
    guard display.canHandOver else {
      Console.error("unlocked, but kiosk-unit needs a DRM display (this one is fbdev); showing the lock again")
      return .relock
    }
    // The kiosk's VT goes to graphics mode before it is shown: the switch then draws no
    // console there, nor does anything until the kiosk's session holds it.
    do throws(Errno) {
      try VirtualTerminal.setDisplayMode(.graphics, of: kiosk.terminal)
    } catch {
      Console.error("unlocked, but cannot use \(kiosk.terminal.path) (kiosk-vt): \(error.text); showing the lock again")
      return .relock
    }
    // Thawed only now, after the judged unlock and just before its VT is in front: until
    // here it stayed frozen, whatever happened to the lock meanwhile.
    if let why = KioskFreezer.open(kiosk) {
      _ = try? VirtualTerminal.setDisplayMode(.text, of: kiosk.terminal)
      Console.error("unlocked, but \(why); showing the lock again")
      return .relock
    }
    switch switchToKiosk(kiosk.terminal, lockTerminal: lockTerminal.control, handingOver: &display) {
    case .switched:
      break
    case .stopped(let signal):
      _ = KioskFreezer.close(kiosk)
      _ = try? VirtualTerminal.setDisplayMode(.text, of: kiosk.terminal)
      return .signal(signal.rawValue)
    case .refused:
      _ = KioskFreezer.close(kiosk)
      _ = try? VirtualTerminal.setDisplayMode(.text, of: kiosk.terminal)
      Console.error("unlocked, but cannot switch to tty\(kiosk.terminal.rawValue) (kiosk-vt); showing the lock again")
      return .relock
    }
    // Started only now, its VT in front: the compositor's session is active from its
    // start, and it takes the display that was just given up. Until it draws, the
    // lock's last picture stays on the CRTC.
    let systemctl = PowerCommand.program()
    let started = PowerCommand.run([systemctl, "start", "--no-block", kiosk.unit])
    let leaving: KioskLeaving
    if started != 0 {
      leaving = KioskLeaving(why: "'\(systemctl) start \(kiosk.unit)' failed (status \(started)); check kiosk-unit")
    } else {
      Console.out("patternlock: showing \(kiosk.unit) on tty\(kiosk.terminal.rawValue)")
      leaving = stay(in: kiosk, lockTerminal: lockTerminal.control, input: &input)
    }
    Console.out("patternlock: locking again: \(leaving.why)")
    // Frozen before its VT goes to the back: from here on, a lock that dies leaves no
    // live kiosk for a VT switch to show.
    _ = KioskFreezer.close(kiosk)
    // The kernel ignores switches away from a VT in graphics mode unless a process holds
    // it (the kiosk's session does): without one, it goes back to text mode first.
    if !VirtualTerminal.look(at: kiosk.terminal).held { _ = try? VirtualTerminal.setDisplayMode(.text, of: kiosk.terminal) }
    let control = lockTerminal.control
    let lockNumber = lockTerminal.number
    var failure = "it stayed in the back for \(LockTerminal.switchMilliseconds / 1000) s"
    var back = false
    do throws(Errno) {
      if try control.activeNumber() != lockNumber { try control.activate(lockNumber) }
      back = try control.waitUntilActive(lockNumber, milliseconds: LockTerminal.switchMilliseconds)
    } catch {
      failure = error.text
    }
    guard back else {
      // Fail closed: a kiosk left on screen without the lock would be open to anyone.
      _ = PowerCommand.run([systemctl, "stop", "--no-block", kiosk.unit])
      return .failed(.terminal("cannot switch back to tty\(lockNumber.rawValue) to lock again (\(failure)); stopping \(kiosk.unit) rather than leave it open"))
    }
    // The acquire signal, if already queued, is acknowledged here.
    control.answerSwitchSignal(allowingRelease: false)
    return leaving.signal.map { .signal($0.rawValue) } ?? .relock
  }

  /// How asking for the kiosk's VT went.
  private enum KioskSwitch {
    case switched
    /// SIGINT or SIGTERM came first; the switch was not made.
    case stopped(Signal)
    /// The kernel refused it, or the kiosk's VT was not active within the switch's time.
    case refused
  }

  /// Asks for the kiosk's VT and allows the switch when the kernel asks the lock's VT
  /// (SIGUSR2), handing the display over just before.
  private mutating func switchToKiosk<D: Display & ~Copyable>(
    _ number: TerminalNumber, lockTerminal: TerminalControl, handingOver display: inout D
  ) -> KioskSwitch {
    guard (try? lockTerminal.activate(number)) != nil else { return .refused }
    let deadline = MonotonicClock.microseconds() &+ UInt64(LockTerminal.switchMilliseconds) * 1000
    // The signalfd is the one source of the switch: the door and the reporter wait
    // the second it takes, for the stay.
    beginMode(doorAndEvents: false)

    func prepare(_ loop: borrowing LoopDescriptors) -> Step<KioskSwitch> {
      let now = MonotonicClock.microseconds()
      guard now < deadline else { return .end(.refused) }
      return .wait(milliseconds: Int32((deadline - now) / 1000 + 1))
    }

    /// SIGUSR1 waits for the kiosk's own stay.
    func signalled(_ signal: Signal) -> KioskSwitch? {
      if signal == .interrupt || signal == .terminate { return .stopped(signal) }
      guard signal == .user2 else { return nil }
      display.handOver()
      guard lockTerminal.answerSwitchSignal(allowingRelease: true) else { return nil }
      let active = (try? lockTerminal.waitUntilActive(number, milliseconds: LockTerminal.switchMilliseconds)) ?? false
      return active ? .switched : .refused
    }

    return cycle(
      prepare: prepare, signal: signalled, remote: { _ in nil }, drain: { _, _ in nil }, failed: { _ in .refused })
  }

  /// Why the stay in the kiosk ends, and the stop signal that ended it, if one did.
  private struct KioskLeaving {
    var why: String
    var signal: Signal?
  }

  /// How often the stay looks at the VTs, whose changes no descriptor reports.
  private static let lookMilliseconds: Int32 = 500

  /// The stay, once the kiosk's VT is in front and its unit started.
  private mutating func stay<I: InputSource & ~Copyable>(
    in kiosk: KioskPlan, lockTerminal: TerminalControl, input: inout I
  ) -> KioskLeaving {
    var lastInput = MonotonicClock.microseconds()
    let shown = lastInput
    var held = false
    beginMode()
    let inputReady = set.add("input", descriptor: input.pollDescriptor)
    let events = self.events
    events?.announce(unlocked: true)

    /// Before each wait: whether the kiosk and the VTs are still as a stay needs them.
    func prepare(_ loop: borrowing LoopDescriptors) -> Step<KioskLeaving> {
      let now = MonotonicClock.microseconds()
      let state = VirtualTerminal.look(at: kiosk.terminal)
      // Idle time counts from when the kiosk holds its VT: under emulation cage takes
      // tens of seconds to start, and locking again meanwhile would take its VT from a
      // compositor that cannot start without it.
      if state.held && !held {
        held = true
        lastInput = now
      }
      let active: TerminalNumber
      do throws(Errno) {
        active = try lockTerminal.activeNumber()
      } catch {
        return .end(KioskLeaving(why: "cannot tell which VT is active: \(error.text)"))
      }
      if let idle = kiosk.relockIdleMicroseconds, now &- lastInput >= idle {
        return .end(KioskLeaving(why: "no input for \(idle / 1_000_000) s (relock-idle-s)"))
      } else if held && !(state.held && state.graphics) {
        return .end(KioskLeaving(why: "\(kiosk.unit) ended"))
      } else if !held && now &- shown >= UInt64(KioskPlan.startMilliseconds) * 1000 {
        return .end(KioskLeaving(why: "\(kiosk.unit) did not take tty\(kiosk.terminal.rawValue) within \(KioskPlan.startMilliseconds / 1000) s ('systemctl status \(kiosk.unit)')"))
      } else if active != kiosk.terminal {
        return .end(KioskLeaving(why: "tty\(active.rawValue) became active"))
      }
      return .wait(milliseconds: EventLoop.lookMilliseconds)
    }

    func signalled(_ signal: Signal) -> KioskLeaving? {
      if signal == .user1 { return KioskLeaving(why: "asked to lock (patternlock lock)") }
      // Someone else made the lock's VT active (or asks to leave it): it shows the lock.
      if signal == .user2 {
        lockTerminal.answerSwitchSignal(allowingRelease: false)
        return KioskLeaving(why: "asked to lock (patternlock lock)")
      }
      // Stopped while the kiosk is open (`systemctl stop patternlock`): no lock will
      // come back over it, so it is closed as for a relock before the process ends.
      return KioskLeaving(why: "stopped by signal \(signal.rawValue)", signal: signal)
    }

    /// UNLOCK finds the kiosk open already; LOCK locks again; a brightness waits for
    /// the lock's screen, which the kiosk's session has now.
    func remote(_ command: EventLink.Command) -> KioskLeaving? {
      if case .brightness(let percent) = command { events?.hold(brightness: percent) }
      guard command == .lock else { return nil }
      events?.remoteLockTaken()
      return KioskLeaving(why: "asked to lock (LOCK from the event socket)")
    }

    func drain(_ source: PollSet.Source, _ loop: borrowing LoopDescriptors) -> KioskLeaving? {
      switch source {
      case inputReady:
        var used = false
        do throws(I.Failure) {
          try input.drain(upTo: MonotonicClock.microseconds()) { _ in used = true }
        } catch {
          // The lock reads input again when it is shown; a failure shows there.
          return KioskLeaving(why: "asked to lock (patternlock lock)")
        }
        if used { lastInput = MonotonicClock.microseconds() }
      default:
        break
      }
      return nil
    }

    return cycle(
      prepare: prepare, signal: signalled, remote: remote, drain: drain,
      failed: { KioskLeaving(why: "poll failed: \($0.text)") })
  }
}
