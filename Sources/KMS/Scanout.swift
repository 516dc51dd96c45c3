import CDRM
import PatternCore

/// How frames reach the screen once the mode is set: the atomic path or the legacy
/// one. `KMSDisplay` owns the device, the buffers and the damage, and hands the
/// driver-facing steps to one of these, chosen once at start-up.
///
/// Two types instead of `if atomic` in every step, as kmscube keeps its atomic and
/// legacy drivers apart: each path reads top to bottom, and a third (a writeback
/// connector, say) is one more type. Class-bound so the display can hold either
/// (`any Scanout`) in Embedded Swift, which has no other existentials; they are
/// made once, so nothing per frame allocates.
protocol Scanout: AnyObject {
  /// Whether this is the atomic path (for the start-up line and the tests).
  var isAtomic: Bool { get }
  /// Queues a flip to `framebuffer` on the next vblank, with a page-flip event
  /// carrying `userData`; `damage` is what changed in it since it was last on screen
  /// (the union of this frame's and the previous one's: double buffering), for drivers
  /// that transfer pixels over a link.
  func flip(to framebuffer: FramebufferID, damage: Rect, userData: UnsafeMutableRawPointer) throws(KMSError)
  /// Switches the output off (idle blanking) or on again showing `framebuffer`.
  /// Throws `.noPowerControl` when the path has no way to; nothing changed then.
  func setPower(on: Bool, framebuffer: FramebufferID) throws(KMSError)
  /// Sets the mode showing `framebuffer` full screen: the lock's first picture, put
  /// straight over whatever was on screen (a boot splash), with no black frame first.
  func setMode(showing framebuffer: FramebufferID, timing: drmModeModeInfo, width: Int, height: Int) throws(KMSError)
  /// After the saved CRTC was set back on exit: puts right what SetCrtc does not.
  func afterRestore(outputWasOff: Bool)
}
