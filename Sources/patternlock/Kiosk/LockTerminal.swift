import CShim
import PatternCore
import SystemCalls

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
struct LockTerminal: ~Copyable {
  /// The VT's number (tty1 is 1).
  let number: Int32
  private let tty: FileDescriptor

  /// How long a switch may take: the kiosk's logind session lets go of its VT first.
  static let switchMilliseconds = 5000

  /// The VT on standard input (the unit's `TTYPath=`), or nil when it is not one.
  static func onStandardInput() -> Int32? {
    let number = pl_vt_number(0)
    return number > 0 ? number : nil
  }

  /// Opens VT `number`, makes it the active one and holds it in VT_PROCESS mode.
  init(number: Int32) throws(KioskFailure) {
    let fd = resultRetryingInterrupts { pl_vt_open(number) }
    guard fd >= 0 else { throw .terminal("cannot open /dev/tty\(number): \(Errno.current.text)") }
    let file = FileDescriptor(owning: fd)
    if resultRetryingInterrupts({ pl_vt_active(fd) }) != number {
      guard resultRetryingInterrupts({ pl_vt_activate(fd, number) }) == 0, LockTerminal.waitUntilActive(fd, number) else {
        throw .terminal("cannot make tty\(number) the active console for the lock: \(Errno.current.text)")
      }
    }
    // SIGUSR2 would end the process before the event loop's signalfd takes it.
    pl_signals_block()
    guard resultRetryingInterrupts({ pl_vt_set_process_mode(fd, 1) }) == 0 else {
      throw .terminal("cannot hold tty\(number) in VT_PROCESS mode: \(Errno.current.text)")
    }
    tty = consume file
    self.number = number
  }

  deinit {
    let fd = tty.rawValue
    _ = resultRetryingInterrupts { pl_vt_set_process_mode(fd, 0) }
  }

  /// The descriptor the event loops answer the kernel's SIGUSR2 on (`answer`); valid
  /// while this value lives.
  var descriptor: Int32 { tty.rawValue }

  /// Polls VT_GETSTATE until VT `number` is active; false after `switchMilliseconds`.
  static func waitUntilActive(_ tty: Int32, _ number: Int32, milliseconds: Int = switchMilliseconds) -> Bool {
    for _ in 0..<(milliseconds / 20) {
      if resultRetryingInterrupts({ pl_vt_active(tty) }) == number { return true }
      sleep(milliseconds: 20)
    }
    return resultRetryingInterrupts { pl_vt_active(tty) } == number
  }

  /// Answers the kernel's SIGUSR2 on the lock's VT: a pending switch away goes on when
  /// `allowingRelease`, else it is refused; a switch to this VT is acknowledged.
  ///
  /// - Returns: whether a switch away was pending (and so allowed or refused).
  @discardableResult
  static func answer(_ tty: Int32, allowingRelease: Bool) -> Bool {
    guard tty >= 0 else { return false }
    if resultRetryingInterrupts({ pl_vt_release_display(tty, allowingRelease ? 1 : 0) }) == 0 { return true }
    _ = resultRetryingInterrupts { pl_vt_release_display(tty, Int32(PL_VT_ACKACQ)) }
    return false
  }
}

/// Why the kiosk could not be shown or locked again.
enum KioskFailure: DescribedError {
  case terminal(String)

  var message: String {
    switch self {
    case .terminal(let text): return text
    }
  }
}
