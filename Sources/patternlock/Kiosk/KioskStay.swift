import Screen

/// Where an unlock with a kiosk goes until the lock is to be shown again: the kiosk's
/// VT (`TerminalKiosk`), or in the tests a stand-in that only says how the stay ended.
protocol KioskStay {
  /// Shows the kiosk and waits; the lock's loop lends its descriptors (the signalfd).
  mutating func stay<D: LockDisplay & ~Copyable, I: InputSource & ~Copyable>(
    loop: inout EventLoop, display: inout D, input: inout I
  ) -> KioskEnding
}

/// The kiosk on its own VT, started through systemd (`EventLoop.showKiosk`).
struct TerminalKiosk: KioskStay {
  let plan: KioskPlan
  /// The lock's own VT: its descriptor and number.
  let lockTerminal: Int32
  let lockNumber: Int32

  mutating func stay<D: LockDisplay & ~Copyable, I: InputSource & ~Copyable>(
    loop: inout EventLoop, display: inout D, input: inout I
  ) -> KioskEnding {
    loop.showKiosk(plan, lockTerminal: lockTerminal, lockNumber: lockNumber, display: &display, input: &input)
  }
}
