import PatternCore
import Scene

/// Idle blanking on a display: a blanked lock screen switches the output off (DPMS
/// off) instead of showing a black frame, and the touch that wakes it switches it on
/// again with the whole current picture.
///
/// The event loop hands each dirty frame to `present`, which renders it (so the
/// panel frame always matches the state, blanked or not) and then picks one of:
/// switch off (the state turned blank), nothing (still blank and off), switch on
/// (woken: the display copies the whole frame before the output lights up, so the
/// picture from before the blank never shows), or a damage-only present. No present,
/// and so no page flip, reaches a display whose output is off.
///
/// A display that refuses to switch off (a driver without DPMS, the headless display)
/// is said once on stderr; from then on blanking shows black frames, as before DPMS.
///
/// Rejected: deciding in `KMSDisplay` from the frame's pixels (an all-black frame is
/// not necessarily a blank screen), and in the Scene controller (it knows nothing of
/// displays, and replays must keep their black frames).
struct IdleBlanking {
  /// The display refused to switch off once: blanking shows black frames from now on.
  private(set) var showsBlackFrames = false
  /// Why the display refused to switch off, once it did.
  private(set) var refusal: String?

  /// Renders the screen's frame and brings the display up to date with it.
  ///
  /// - Parameters:
  ///   - screen: the lock screen, dirty or not.
  ///   - display: where the frame goes; no flip may be pending.
  /// - Returns: true when a frame was presented (a flip whose completion the display
  ///   reports later); false when nothing was shown or the output was switched.
  /// - Throws: `DisplayFailure` when presenting or switching the output on fails.
  mutating func present<D: Display & ~Copyable>(_ screen: inout LiveLockScreen, on display: inout D) throws(DisplayFailure) -> Bool {
    let damage = screen.render()  // before reading `panel`: the display gets the new frame
    if screen.controller.state.blanked && !showsBlackFrames {
      if display.isOutputOff { return false }
      do throws(DisplayFailure) {
        try display.switchOff()
        return false
      } catch {
        // Said once; the full-screen damage of the blank is then shown as black.
        showsBlackFrames = true
        refusal = error.message
        Console.error("cannot switch the display off when idle (\(error.message)); blanking it with black frames instead")
      }
    }
    if display.isOutputOff {
      try display.switchOn(showing: screen.panel)
      return false
    }
    return try display.show(screen.panel, damage: damage)
  }
}
