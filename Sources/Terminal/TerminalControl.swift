import CShim
import SystemCalls

/// A VT's ioctls on a descriptor that something else owns (a `VirtualTerminal`, or
/// `ConsoleMode`'s /dev/tty0): a value a loop can keep and copy, valid while the owner
/// lives. Each call is made once by CShim and retried on EINTR here; a descriptor that
/// is no VT fails with `Errno.notTerminal`.
public struct TerminalControl: Sendable {
  /// The lent descriptor.
  public let descriptor: Int32

  /// Lends `descriptor`, which must stay open while this value is used.
  public init(lending descriptor: Int32) { self.descriptor = descriptor }

  /// The active VT's number (VT_GETSTATE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func activeNumber() throws(Errno) -> TerminalNumber {
    let fd = descriptor
    let number = try retryingInterrupts { pl_vt_active(fd) }
    guard let active = TerminalNumber(rawValue: number) else { throw .invalid }
    return active
  }

  /// Asks for VT `number` to become the active one (VT_ACTIVATE); the switch happens
  /// later, when every VT that holds its switching has allowed it.
  ///
  /// - Throws: the ioctl's `Errno`.
  public func activate(_ number: TerminalNumber) throws(Errno) {
    let fd = descriptor
    try retryingInterrupts { pl_vt_activate(fd, number.rawValue) }
  }

  /// Waits until VT `number` is the active one, looking every 20 ms (VT_WAITACTIVE
  /// would wait for ever, and no signal could cut it short: the loop's are blocked).
  ///
  /// - Returns: false when it was not after `milliseconds`.
  /// - Throws: VT_GETSTATE's `Errno`.
  public func waitUntilActive(_ number: TerminalNumber, milliseconds: Int) throws(Errno) -> Bool {
    let deadline = MonotonicClock.microseconds() &+ UInt64(max(milliseconds, 0)) * 1000
    while try activeNumber() != number {
      if MonotonicClock.microseconds() >= deadline { return false }
      sleep(milliseconds: 20)
    }
    return true
  }

  /// Sets who decides switches away from this VT (VT_SETMODE; SIGUSR2 is the release
  /// and acquire signal of `.process`).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func setSwitching(_ switching: TerminalSwitching) throws(Errno) {
    let fd = descriptor
    let process: Int32 = switching == .process ? 1 : 0
    try retryingInterrupts { pl_vt_set_process_mode(fd, process) }
  }

  /// Whether a process holds this VT in VT_PROCESS mode (VT_GETMODE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func isHeld() throws(Errno) -> Bool {
    let fd = descriptor
    return try retryingInterrupts { pl_vt_is_held(fd) } == 1
  }

  /// Answers the kernel's SIGUSR2 (VT_RELDISP).
  ///
  /// - Throws: the ioctl's `Errno`: `.invalid` when no switch of that kind is pending.
  public func answer(_ answer: TerminalSwitchAnswer) throws(Errno) {
    let fd = descriptor
    let value = answer.rawValue
    try retryingInterrupts { pl_vt_release_display(fd, value) }
  }

  /// Answers a SIGUSR2 whichever switch it was for: a pending switch away goes on when
  /// `allowingRelease`, else it is refused; otherwise a switch to this VT is
  /// acknowledged (the signal does not say which it is).
  ///
  /// - Returns: whether a switch away was pending (and so allowed or refused).
  @discardableResult
  public func answerSwitchSignal(allowingRelease: Bool) -> Bool {
    do throws(Errno) {
      try answer(allowingRelease ? .allowRelease : .refuseRelease)
      return true
    } catch {
      _ = try? answer(.acknowledgeAcquire)
      return false
    }
  }

  /// What the console draws (KDGETMODE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func displayMode() throws(Errno) -> TerminalDisplayMode {
    let fd = descriptor
    return TerminalDisplayMode(rawValue: try retryingInterrupts { pl_kd_get_mode(fd) })
  }

  /// Sets what the console draws (KDSETMODE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func setDisplayMode(_ mode: TerminalDisplayMode) throws(Errno) {
    let fd = descriptor
    try retryingInterrupts { pl_kd_set_mode(fd, mode.rawValue) }
  }

  /// What the keyboard delivers (KDGKBMODE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func keyboardMode() throws(Errno) -> TerminalKeyboardMode {
    let fd = descriptor
    return TerminalKeyboardMode(rawValue: try retryingInterrupts { pl_kd_get_keyboard_mode(fd) })
  }

  /// Sets what the keyboard delivers (KDSKBMODE).
  ///
  /// - Throws: the ioctl's `Errno`.
  public func setKeyboardMode(_ mode: TerminalKeyboardMode) throws(Errno) {
    let fd = descriptor
    try retryingInterrupts { pl_kd_set_keyboard_mode(fd, mode.rawValue) }
  }
}
