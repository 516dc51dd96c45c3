import CDRM
import PatternCore
import SystemCalls

/// Flips and power through atomic commits (`AtomicPipeline`): the path every
/// converted driver takes, because the test-only commit at start-up proved the whole
/// configuration before anything on screen changed.
final class AtomicScanout: Scanout {
  private let pipeline: AtomicPipeline
  private let path: String

  init(_ pipeline: consuming AtomicPipeline, path: String) {
    self.pipeline = pipeline
    self.path = path
  }

  var isAtomic: Bool { true }

  /// The damage goes with the commit as the plane's `FB_DAMAGE_CLIPS`.
  func flip(to framebuffer: FramebufferID, damage: Rect, userData: UnsafeMutableRawPointer) throws(KMSError) {
    try pipeline.flip(to: framebuffer, damage: damage, userData: userData, path: path)
  }

  /// The CRTC's `ACTIVE` property: what atomic defines as DPMS.
  func setPower(on: Bool, framebuffer: FramebufferID) throws(KMSError) {
    try pipeline.setActive(on, framebuffer: framebuffer, path: path)
  }

  /// The modeset the test-only commit at start-up proved, committed now.
  func setMode(showing framebuffer: FramebufferID, timing: drmModeModeInfo, width: Int, height: Int) throws(KMSError) {
    guard pipeline.modeset(framebuffer: framebuffer, width: width, height: height) else {
      throw .callFailed(call: "drmModeAtomicCommit (modeset)", path: path, errno: .current)
    }
  }

  /// SetCrtc makes an atomic driver's CRTC active again by itself.
  func afterRestore(outputWasOff: Bool) {}
}
