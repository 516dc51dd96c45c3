import Terminal

/// The console as the lock holds it for its whole run: its own VT while a kiosk runs
/// on another (`LockTerminal`, held in VT_PROCESS mode), and the console's graphics
/// mode while the lock is on the display (`ConsoleMode`: no text, no keys to the
/// console). One owner, made before the display is taken and ended after the display
/// is restored; the loop and the kiosk borrow the VT from it (`lent`).
///
/// The order of giving back is the one the kernel needs: the console's text mode
/// (`showText`) while the lock still holds the display, then the display's CRTC, and
/// the VT's switching mode last, when this value ends.
package struct LockConsole: ~Copyable {
  private let terminal: LockTerminal?
  private var graphics: ConsoleMode?

  /// - Parameter terminal: the lock's own VT, opened when a kiosk is configured.
  package init(terminal: consuming LockTerminal?) {
    self.terminal = terminal
  }

  /// The lock's VT as the loop and the kiosk use it while this value lives; nil
  /// without a kiosk.
  package var lent: LockTerminal.Lent? {
    switch terminal {
    case .some(let held): return held.lent
    case .none: return nil
    }
  }

  /// Switches the console to graphics (the display is taken; the lock is about to draw).
  package mutating func showGraphics() { graphics = ConsoleMode() }

  /// Puts the console's text mode and keyboard back (the lock is leaving the display).
  package mutating func showText() { graphics = nil }
}
