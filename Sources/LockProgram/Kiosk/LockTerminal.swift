import PatternCore
import SystemCalls
import Terminal

/// The lock's own virtual terminal while a kiosk runs on another one (`kiosk-unit`).
///
/// The lock makes it the active VT before it takes the display (a lock restarted while
/// the kiosk was showing comes back on top, never behind it), and holds it in
/// VT_PROCESS mode: the kernel then asks the lock (SIGUSR2) before any switch away,
/// and the lock allows only the one it asked for itself, after an unlock. VT_PROCESS
/// is also what makes that switch possible at all: the kernel ignores requests to
/// switch away from a VT in KD_GRAPHICS whose mode is VT_AUTO (`change_console` in
/// drivers/tty/vt/vt_ioctl.c), which is what the lock holds otherwise; logind holds
/// its sessions' VTs the same way. Back to VT_AUTO in `deinit`; when the process dies
/// the kernel goes back to VT_AUTO by itself at the next switch (the signal finds no one).
package struct LockTerminal: ~Copyable {
  private let terminal: VirtualTerminal

  /// How long a switch may take: the kiosk's logind session lets go of its VT first.
  package static let switchMilliseconds = 5000

  /// The lock's VT as the loops use it while this value lives: its ioctls and number.
  package struct Lent {
    package let control: TerminalControl
    package let number: TerminalNumber
  }

  /// Opens VT `number`, makes it the active one and holds it in VT_PROCESS mode.
  package init(number: TerminalNumber) throws(KioskFailure) {
    let opened: VirtualTerminal
    do throws(Errno) {
      opened = try VirtualTerminal(opening: number)
    } catch {
      throw .terminal("cannot open \(number.path): \(error.text)")
    }
    let control = opened.control
    let active: Bool
    do throws(Errno) {
      if try control.activeNumber() != number { try control.activate(number) }
      active = try control.waitUntilActive(number, milliseconds: LockTerminal.switchMilliseconds)
    } catch {
      throw .terminal("cannot make tty\(number.rawValue) the active console for the lock: \(error.text)")
    }
    guard active else {
      throw .terminal("tty\(number.rawValue) did not become the active console for the lock within \(LockTerminal.switchMilliseconds / 1000) s")
    }
    // SIGINT and SIGTERM wait for the loop's signalfd from here on (SIGUSR1 and SIGUSR2
    // are blocked from the process's start, CShim.c): a stop before the loop runs then
    // leaves through the owners' deinits like any other, the VT's mode put back.
    SignalMask.blockLoopSignals()
    do throws(Errno) {
      try control.setSwitching(.process)
    } catch {
      throw .terminal("cannot hold tty\(number.rawValue) in VT_PROCESS mode: \(error.text)")
    }
    terminal = consume opened
  }

  deinit {
    _ = try? terminal.control.setSwitching(.automatic)
  }

  package var lent: Lent { Lent(control: terminal.control, number: terminal.number) }
}

/// Why the kiosk could not be shown or locked again.
package enum KioskFailure: DescribedError {
  case terminal(String)

  package var message: String {
    switch self {
    case .terminal(let text): return text
    }
  }
}
