import CDRM
import PatternCore
import SystemCalls

/// What atomic modesetting needs to drive one CRTC: its primary plane, the property
/// IDs by name, and the mode as a property blob (freed in `deinit`).
///
/// Built by `Probe.atomicPipeline` only after the driver accepted the atomic client
/// cap; `modeset` then proves the whole request with a test-only commit before the
/// real one, so a driver that refuses it costs nothing and legacy SetCrtc takes over.
struct AtomicPipeline: ~Copyable {
  /// The property IDs an atomic modeset and flip write, found by name (the IDs differ
  /// per driver and per kernel).
  struct PropertyIDs {
    var connectorCrtc: UInt32
    var crtcMode: UInt32
    var crtcActive: UInt32
    var planeFramebuffer: UInt32
    var planeCrtc: UInt32
    var sourceX: UInt32
    var sourceY: UInt32
    var sourceWidth: UInt32
    var sourceHeight: UInt32
    var crtcX: UInt32
    var crtcY: UInt32
    var crtcWidth: UInt32
    var crtcHeight: UInt32
    /// The plane's `FB_DAMAGE_CLIPS`, or nil on kernels and drivers without it (then
    /// flips carry no damage, and the driver takes the whole buffer).
    var damageClips: UInt32?

    /// Every ID by its kernel name, or nil when any is missing (then atomic is not used).
    init?(connector c: Probe.ObjectProperties, crtc r: Probe.ObjectProperties, plane p: Probe.ObjectProperties) {
      guard let connectorCrtc = c.id("CRTC_ID"), let crtcMode = r.id("MODE_ID"), let crtcActive = r.id("ACTIVE"),
        let planeFramebuffer = p.id("FB_ID"), let planeCrtc = p.id("CRTC_ID"),
        let sourceX = p.id("SRC_X"), let sourceY = p.id("SRC_Y"), let sourceWidth = p.id("SRC_W"),
        let sourceHeight = p.id("SRC_H"), let crtcX = p.id("CRTC_X"), let crtcY = p.id("CRTC_Y"),
        let crtcWidth = p.id("CRTC_W"), let crtcHeight = p.id("CRTC_H")
      else { return nil }
      self.connectorCrtc = connectorCrtc
      self.crtcMode = crtcMode
      self.crtcActive = crtcActive
      self.planeFramebuffer = planeFramebuffer
      self.damageClips = p.id("FB_DAMAGE_CLIPS")
      self.planeCrtc = planeCrtc
      self.sourceX = sourceX
      self.sourceY = sourceY
      self.sourceWidth = sourceWidth
      self.sourceHeight = sourceHeight
      self.crtcX = crtcX
      self.crtcY = crtcY
      self.crtcWidth = crtcWidth
      self.crtcHeight = crtcHeight
    }
  }

  /// A plane's source extent: SRC_W and SRC_H are 16.16 fixed point, CRTC_W and CRTC_H
  /// whole pixels.
  static func sourceExtent(pixels: Int) -> UInt64 {
    UInt64(UInt32(bitPattern: Fixed16(pixels).raw))
  }

  /// The device's descriptor; valid while the `DrmDevice` lives (`KMSDisplay` declares
  /// it last so it is destroyed after this value).
  private let descriptor: Int32
  let connector: ConnectorID
  let crtc: CRTCID
  let plane: PlaneID
  private let properties: PropertyIDs
  /// The mode blob `MODE_ID` points at.
  private let modeBlob: UInt32

  /// Creates the mode blob; nil when the driver refuses it.
  init?(
    device: borrowing DrmDevice, connector: ConnectorID, crtc: CRTCID, plane: PlaneID, properties: PropertyIDs,
    timing: drmModeModeInfo
  ) {
    var timing = timing
    var blob: UInt32 = 0
    let size = MemoryLayout<drmModeModeInfo>.size
    guard drmModeCreatePropertyBlob(device.descriptor, &timing, size, &blob) == 0, blob != 0 else { return nil }
    self.descriptor = device.descriptor
    self.connector = connector
    self.crtc = crtc
    self.plane = plane
    self.properties = properties
    self.modeBlob = blob
  }

  deinit {
    // The CRTC is put back with legacy SetCrtc first (KMSDisplay.deinit), so nothing
    // refers to the blob any more.
    _ = drmModeDestroyPropertyBlob(descriptor, modeBlob)
  }

  /// The first modeset: connector → CRTC with the mode, the primary plane showing
  /// `framebuffer` full screen. A test-only commit of the same request comes first;
  /// with `testOnly` it is the only one (nothing on screen changes).
  ///
  /// - Returns: false when the driver refused the request (nothing was changed).
  func modeset(framebuffer: FramebufferID, width: Int, height: Int, testOnly: Bool = false) -> Bool {
    guard let request = drmModeAtomicAlloc() else { return false }
    defer { drmModeAtomicFree(request) }
    let p = properties
    let (sourceWidth, sourceHeight) = (AtomicPipeline.sourceExtent(pixels: width), AtomicPipeline.sourceExtent(pixels: height))
    let (connector, crtc, plane) = (connector.rawValue, crtc.rawValue, plane.rawValue)
    let values: [(object: UInt32, property: UInt32, value: UInt64)] = [
      (connector, p.connectorCrtc, UInt64(crtc)),
      (crtc, p.crtcMode, UInt64(modeBlob)),
      (crtc, p.crtcActive, 1),
      (plane, p.planeFramebuffer, UInt64(framebuffer.rawValue)),
      (plane, p.planeCrtc, UInt64(crtc)),
      (plane, p.sourceX, 0),
      (plane, p.sourceY, 0),
      (plane, p.sourceWidth, sourceWidth),
      (plane, p.sourceHeight, sourceHeight),
      (plane, p.crtcX, 0),
      (plane, p.crtcY, 0),
      (plane, p.crtcWidth, UInt64(width)),
      (plane, p.crtcHeight, UInt64(height)),
    ]
    for v in values where drmModeAtomicAddProperty(request, v.object, v.property, v.value) < 0 { return false }
    let flags = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
    guard drmModeAtomicCommit(descriptor, request, flags | UInt32(DRM_MODE_ATOMIC_TEST_ONLY), nil) == 0 else { return false }
    return testOnly || drmModeAtomicCommit(descriptor, request, flags, nil) == 0
  }

  /// Queues a flip to `framebuffer` on the next vblank (an atomic commit with a
  /// page-flip event, non-blocking); its completion arrives as a page-flip event
  /// carrying `userData`, exactly as after a legacy `drmModePageFlip`.
  ///
  /// - Parameters:
  ///   - damage: what changed in `framebuffer` since it was last on screen, sent as
  ///     the plane's `FB_DAMAGE_CLIPS` where the plane has it.
  ///   - path: the device, for the message.
  /// - Throws: `KMSError.callFailed`.
  func flip(to framebuffer: FramebufferID, damage: Rect, userData: UnsafeMutableRawPointer, path: String) throws(KMSError) {
    // Straight through the ioctl: drmModeAtomicCommit copies and sorts every request
    // into heap buffers, and this runs once per frame.
    let (fd, plane, property) = (descriptor, plane.rawValue, properties.planeFramebuffer)
    let clips = properties.damageClips ?? 0
    let flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK)
    let (x1, y1) = (Int32(damage.x), Int32(damage.y))
    let (x2, y2) = (Int32(damage.x + damage.width), Int32(damage.y + damage.height))
    try systemCall("DRM_IOCTL_MODE_ATOMIC", on: path) {
      pl_drm_atomic_flip_damage(fd, plane, property, UInt64(framebuffer.rawValue), clips, x1, y1, x2, y2, flags, userData)
    }
  }

  /// Switches the CRTC off (`ACTIVE` = 0) or on again showing `framebuffer`: idle
  /// blanking as atomic drivers do DPMS. Off keeps the mode blob and the plane's
  /// framebuffer, so on restores the same configuration with one blocking commit
  /// (no page-flip event comes back; vblank events stop while the CRTC is off).
  ///
  /// - Parameters:
  ///   - active: true switches on.
  ///   - framebuffer: what the primary plane shows once on (ignored for off).
  ///   - path: the device, for the message.
  /// - Throws: `KMSError.callFailed` when the driver refuses; nothing changed then.
  func setActive(_ active: Bool, framebuffer: FramebufferID, path: String) throws(KMSError) {
    let (fd, crtc, plane, p, blob) = (descriptor, crtc.rawValue, plane.rawValue, properties, modeBlob)
    let flags = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
    // Two literals, not an interpolation: the waking touch's path allocates nothing.
    let call = active ? "DRM_IOCTL_MODE_ATOMIC (CRTC ACTIVE=1)" : "DRM_IOCTL_MODE_ATOMIC (CRTC ACTIVE=0)"
    try systemCall(call, on: path) {
      pl_drm_atomic_set_active(
        fd, crtc, p.crtcActive, active ? 1 : 0, p.crtcMode, blob, plane, p.planeFramebuffer, framebuffer.rawValue, flags)
    }
  }
}
