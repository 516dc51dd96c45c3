import CDRM
import PatternCore
import SystemCalls

/// Flips with `drmModePageFlip` and power with the connector's `DPMS` property: the
/// path for drivers never converted to atomic, and for any atomic request a driver
/// refused (`PATTERNLOCK_KMS_LEGACY=1` forces it for testing).
final class LegacyScanout: Scanout {
  private let descriptor: Int32
  private let path: String
  private let crtc: CRTCID
  private let connector: ConnectorID
  private let output: String
  /// The connector's `DPMS` property; nil when it has none (then the output cannot be
  /// switched off, and blanking shows black frames).
  private let dpmsProperty: UInt32?
  /// Whether the driver takes `drmModeDirtyFB` (until it says ENOSYS).
  private var wantsDirtyFB = true

  init(device: borrowing DrmDevice, crtc: CRTCID, connector: ConnectorID, output: String) {
    descriptor = device.descriptor
    path = device.path
    self.crtc = crtc
    self.connector = connector
    self.output = output
    dpmsProperty = Probe.objectProperties(connector.rawValue, type: Probe.objectConnector, of: device).id("DPMS")
  }

  var isAtomic: Bool { false }

  /// `drmModeSetCrtc`.
  func setMode(showing framebuffer: FramebufferID, timing: drmModeModeInfo, width: Int, height: Int) throws(KMSError) {
    try setCrtc(descriptor, path: path, crtc: crtc, framebuffer: framebuffer, connector: connector, timing: timing)
  }

  /// The damage goes to `drmModeDirtyFB` first, for drivers that need to be told
  /// (those that send pixels over a link); one that answers ENOSYS does not, and is
  /// not asked again.
  func flip(to framebuffer: FramebufferID, damage: Rect, userData: UnsafeMutableRawPointer) throws(KMSError) {
    let (fd, crtc, framebuffer) = (descriptor, crtc.rawValue, framebuffer.rawValue)
    if wantsDirtyFB && !damage.isEmpty {
      let (x1, y1) = (UInt16(clamping: damage.x), UInt16(clamping: damage.y))
      let (x2, y2) = (UInt16(clamping: damage.x + damage.width), UInt16(clamping: damage.y + damage.height))
      if pl_drm_dirty_fb(fd, framebuffer, x1, y1, x2, y2) != 0 && Errno.current == .notImplemented { wantsDirtyFB = false }
    }
    try systemCall("drmModePageFlip", on: path) {
      drmModePageFlip(fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
    }
  }

  func setPower(on: Bool, framebuffer: FramebufferID) throws(KMSError) {
    guard let dpms = dpmsProperty else { throw .noPowerControl(path: path, output: output) }
    let (fd, connector) = (descriptor, connector.rawValue)
    let value = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
    // Two literals, not an interpolation: the waking touch's path allocates nothing.
    try systemCall(on ? "drmModeConnectorSetProperty (DPMS on)" : "drmModeConnectorSetProperty (DPMS off)", on: path) {
      drmModeConnectorSetProperty(fd, connector, dpms, value)
    }
  }

  /// A legacy driver's SetCrtc need not touch the connector's DPMS state, so an
  /// output left off by blanking is switched on for the console.
  func afterRestore(outputWasOff: Bool) {
    guard outputWasOff, let dpms = dpmsProperty else { return }
    _ = drmModeConnectorSetProperty(descriptor, connector.rawValue, dpms, UInt64(DRM_MODE_DPMS_ON))
  }
}
