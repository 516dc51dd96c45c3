import Screen

/// Where an unlock with a kiosk goes until the lock is to be shown again: the kiosk's
/// VT (`TerminalKiosk`), or in the tests a stand-in that only says how the stay ended.
package protocol KioskStay {
  /// Shows the kiosk and waits, in the lock's loop (its kiosk mode, on the device).
  mutating func stay<D: Display & ~Copyable, I: InputSource & ~Copyable>(
    loop: inout EventLoop, display: inout D, input: inout I
  ) -> KioskEnding
}

/// The kiosk on its own VT, started through systemd (`EventLoop.showKiosk`, the loop's
/// kiosk mode).
package struct TerminalKiosk: KioskStay {
  package let plan: KioskPlan
  /// The lock's own VT.
  package let lockTerminal: LockTerminal.Lent

  package mutating func stay<D: Display & ~Copyable, I: InputSource & ~Copyable>(
    loop: inout EventLoop, display: inout D, input: inout I
  ) -> KioskEnding {
    loop.showKiosk(plan, lockTerminal: lockTerminal, display: &display, input: &input)
  }
}
