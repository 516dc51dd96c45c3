// KMS: drives a display through DRM/KMS with libdrm, no X, no Wayland, no GPU API.
//
// Design. `KMSDisplay.init` is the whole modesetting sequence, read top to bottom:
// device → resources → connected connector → mode → encoder/CRTC → two dumb buffers
// (each with its framebuffer; `BufferPair` says which is on screen) → an atomic
// test-only commit where the driver offers one, else SetCrtc later; one helper per
// step (`Probe`). The mode itself is set by the first `present`, showing the first
// picture, so nothing of the lock's shows before it (a boot splash stays). From then
// on the driver-facing steps (flip, power) go through `AtomicScanout` or
// `LegacyScanout`, chosen there. Frames are composed by the caller in a cached shadow
// buffer; `present` copies only the damaged rows into the back buffer
// (`DamageCopy`, write-only: dumb buffers are uncached on many ARM boards) and queues
// a page flip on vblank (an atomic commit of the plane's FB_ID, or legacy PageFlip).
// The flip's completion comes back as an event on the DRM fd, which the caller's poll
// loop hands to `handleEvents`.
// At most one flip is in flight; the buffer being scanned out is never written, except
// on drivers that copy it over a link (`updatesInPlace`), where nothing reads it as it
// is written.
// Idle blanking switches the output off (`switchOutputOff`: the CRTC's ACTIVE = 0 in an
// atomic commit, else the connector's legacy DPMS property) and `switchOutputOn` brings it
// back showing the whole current frame; no flip is queued while it is off.
// `deinit` puts back the CRTC as it was, so the console reappears on exit, also
// when the output was off.
//
// Rejected alternatives:
// - Drawing straight into the mapped buffer: reads for blending would stall on
//   uncached memory, and drawing into the buffer on screen tears.
// - fbdev (/dev/fb0) as the only path: deprecated, no vblank-synchronised flips, absent
//   on vc4 with modern kernels unless emulated. It is kept as the fallback back-end
//   for boards without a DRM driver (FBDevDisplay), not as KMS's replacement.
// - Atomic only: drivers never converted to atomic refuse the client cap, while
//   legacy SetCrtc + PageFlip works on every driver, so any failure on the atomic path
//   (cap refused, no primary plane, a missing property, a refused test-only commit)
//   falls back to it silently. Atomic is used where offered because the test-only
//   commit checks the whole configuration before anything on screen changes.
// - Atomic for the restore and the hotplug re-set too: legacy SetCrtc is implemented
//   over atomic on atomic drivers, and the saved CRTC is legacy state anyway.
// - Blanking by flipping to a black frame: the panel and its backlight stay powered
//   (a lock screen may sit idle for days), and scan-out keeps reading memory. Kept
//   only as the fallback when the driver refuses to switch the output off.
// - Blanking by detaching the plane or disabling the CRTC (MODE_ID 0): waking would
//   then be a full modeset; ACTIVE = 0 is what atomic defines as DPMS off, and the
//   kernel reports it in the connector's `dpms` file, as legacy DPMS off.
// - Front-buffer rendering with dirty-FB ioctls everywhere: not all drivers implement
//   them, and it tears where the display scans out of the buffer. It is used only
//   where the driver copies the buffer over a link (`UploadDrivers`), and given up on
//   ENOSYS.

import CDRM
import CShim
import PatternCore
import Raster
import SystemCalls

/// A display driven through KMS: the chosen card, connector, mode and CRTC, and two
/// scan-out buffers that are flipped on vblank.
public struct KMSDisplay: ~Copyable {
  // Stored properties are destroyed in declaration order after `deinit`: the buffers,
  // mailbox and mode blob first, the device (whose close would invalidate them) last.
  private var buffers: BufferPair
  private let mailbox: FlipMailbox
  /// The atomic or the legacy way frames and power reach the screen (the legacy one
  /// replaces an atomic pipeline the first modeset refuses, when master came late).
  private var scanout: any Scanout
  private let device: DrmDevice

  /// The chosen connector's name (`HDMI-A-1`).
  public let outputName: String
  /// Which card and output were taken, why, and what else there was: one line for the
  /// journal (`CardChoice.summary`).
  public let choice: String
  /// The mode being scanned out.
  public let mode: DisplayMode
  /// The pixel format of the buffers.
  public let format: FourCC
  /// How the panel is mounted (the connector's `panel orientation` property).
  public let panelOrientation: PanelOrientation
  /// The connector's physical size in millimetres (0 when unknown).
  public let millimetres: (width: Int, height: Int)

  private let connectorID: ConnectorID
  private let crtcID: CRTCID
  private let timing: drmModeModeInfo
  /// The CRTC as it was before the lock's first picture, put back by `deinit`; read
  /// once master is held.
  private var saved: SavedCrtc?
  private var damage: DamageTracker
  /// Whether frames are written into the buffer on screen and its damage handed to
  /// `drmModeDirtyFB`, instead of flipping between the two (`buffers`): for drivers that
  /// copy the buffer over a link (`UploadDrivers`), where a flip to another buffer copies
  /// all of it. Turned off for good when the driver answers ENOSYS.
  public private(set) var updatesInPlace: Bool
  /// Whether a flip is queued and its event not yet handled.
  public private(set) var isFlipPending = false
  /// Whether the output is connected (false after a hotplug removal).
  public private(set) var isConnected = true
  /// Whether the output is switched off for idle blanking (`switchOutputOff`), or
  /// handed over (`handOver`): nothing is shown until `switchOutputOn`.
  public private(set) var isOutputOff = false
  /// Whether DRM master was given up for a kiosk (`handOver`).
  public private(set) var isHandedOver = false
  /// Whether the mode is set: by the first `present`, showing the first picture.
  private var isModeSet = false
  /// Whether the atomic pipeline was proved by a test-only commit at start-up (not
  /// possible without master): an unproved one the driver refuses gives way to legacy.
  private var isScanoutProved: Bool
  /// Called by the first `present` before it takes DRM master and sets the mode: where
  /// a boot splash holds the display (`KMSOptions.masterMayBeHeld`), it is asked to let
  /// go here, when the first picture is ready, so nothing shows between the two.
  public var beforeFirstPicture: (() -> Void)?

  /// Takes over a display: the modesetting sequence, one helper per step.
  ///
  /// - Parameter options: device, output and mode overrides; nil fields are chosen.
  /// - Throws: `KMSError` naming the device and what to do.
  public init(options: KMSOptions) throws(KMSError) {
    let (path, choice) = try KMSDisplay.choose(options)
    let device = try DrmDevice(path: path)
    guard device.makesDumbBuffers else { throw .noDumbBuffers(path: path, driver: device.driverName) }
    // Probing, dumb buffers and framebuffers need no master; a splash holding it lets
    // go at the first picture.
    do throws(KMSError) { try device.becomeMaster() } catch { if !options.masterMayBeHeld { throw error } }
    let isMaster = device.isMaster
    let resources = try Probe.resources(of: device)
    // The output chosen a moment ago, looked up again on the card now held.
    let connector = try Probe.connectedConnector(of: device, resources, named: choice.output.text)
    guard let modeIndex = DisplayMode.choose(from: connector.modes, request: options.mode) else {
      throw .unknownMode(
        path: device.path, output: connector.name.text, mode: options.mode?.text ?? "(preferred)",
        modes: KMSDisplay.modeList(connector.modes))
    }
    let mode = connector.modes[modeIndex]
    let crtc = try Probe.crtc(for: connector, resources, of: device)
    let format = try KMSDisplay.scanoutFormat(options.format, crtc: crtc, resources, output: connector.name.text, of: device)
    let buffers = BufferPair(
      try DumbBuffer(device: device, width: mode.width, height: mode.height, format: format),
      try DumbBuffer(device: device, width: mode.width, height: mode.height, format: format))
    buffers.clear()
    let saved = isMaster ? Probe.savedCrtc(crtc, connector: connector.id, of: device) : nil
    let timing = connector.timings[modeIndex]
    // The mode is only tested here and set by the first `present`, with the first
    // picture: until then the screen keeps what it shows (a boot splash, the console),
    // never a black frame of the lock's. Without master the test waits for that present.
    let scanout: any Scanout
    if let atomic = KMSDisplay.atomicModeset(
      device, options, crtc: crtc, connector: connector.id, timing: timing, resources, framebuffer: buffers.frontFramebuffer, mode: mode,
      testing: isMaster)
    {
      scanout = AtomicScanout(atomic, path: device.path)
    } else {
      scanout = LegacyScanout(device: device, crtc: crtc, connector: connector.id, output: connector.name.text)
    }

    self.panelOrientation = Probe.panelOrientation(of: connector.id, device: device)
    self.buffers = buffers
    self.mailbox = FlipMailbox()
    self.scanout = scanout
    self.updatesInPlace = UploadDrivers.copiesOverALink(device.driverName)
    self.device = device
    self.outputName = connector.name.text
    self.choice = choice.summary
    self.mode = mode
    self.format = format
    self.millimetres = (connector.widthMillimetres, connector.heightMillimetres)
    self.connectorID = connector.id
    self.crtcID = crtc
    self.timing = timing
    self.saved = saved
    self.damage = DamageTracker(width: mode.width, height: mode.height)
    self.isScanoutProved = isMaster
  }

  deinit {
    // Put back what was there (usually the console's framebuffer); a CRTC that was
    // off is switched off again.
    if let saved {
      var connector = saved.connector.rawValue
      if var mode = saved.mode {
        _ = drmModeSetCrtc(
          device.descriptor, saved.crtc.rawValue, saved.framebuffer.rawValue, saved.x, saved.y, &connector, 1, &mode)
      } else {
        _ = drmModeSetCrtc(device.descriptor, saved.crtc.rawValue, FramebufferID.none.rawValue, 0, 0, nil, 0, nil)
      }
      if saved.mode != nil { scanout.afterRestore(outputWasOff: isOutputOff) }
    }
  }

  /// Whether modesetting and flips are atomic commits (false: legacy SetCrtc + PageFlip).
  public var usesAtomic: Bool { scanout.isAtomic }
  /// The card node in use.
  public var path: String { device.path }
  /// The descriptor to `poll` for flip events.
  public var pollDescriptor: Int32 { device.pollDescriptor }
  /// Width of the scan-out buffers in pixels.
  public var width: Int { mode.width }
  /// Height of the scan-out buffers in pixels.
  public var height: Int { mode.height }

  /// Copies the damaged part of `shadow` into the back buffer and queues a flip to it
  /// (with `updatesInPlace`: into the buffer on screen, with no flip).
  ///
  /// The shadow holds the whole frame, `width * bytesPerPixel` bytes per row. The back
  /// buffer also receives the damage of the frame before (it last saw the frame two
  /// presents ago; `DamageTracker`). Allocates nothing.
  ///
  /// - Parameters:
  ///   - shadow: the composed frame, in the display's format and size.
  ///   - damage: what changed since the last present, in panel pixels.
  /// - Returns: false when nothing was queued because the output is disconnected.
  /// - Precondition: no flip is pending (`isFlipPending` is false).
  /// - Throws: `KMSError.callFailed` when the atomic flip, `drmModePageFlip` or
  ///   `drmModeDirtyFB` fails.
  @discardableResult
  public mutating func present<Pixel>(shadow: [Pixel], damage frameDamage: Rect) throws(KMSError) -> Bool {
    precondition(!isFlipPending, "present while a flip is in flight")
    precondition(!isOutputOff, "present while the output is switched off (switchOutputOn first)")
    guard isConnected else { return false }
    if !isModeSet { try setModeShowing(shadow) }
    if updatesInPlace, try updateInPlace(shadow, damage: frameDamage) { return true }
    let back = buffers.back
    let area = damage.take(frameDamage, for: back)
    copy(shadow, area: area, into: back)
    try scanout.flip(to: buffers.framebuffer(back), damage: area, userData: mailbox.userData)
    isFlipPending = true
    return true
  }

  /// The first picture, whole, in the front buffer, and the mode set showing it; the
  /// first flip follows as any other (the back buffer gets the whole frame too). The
  /// picture is in place before anyone holding the display is asked to let go
  /// (`beforeFirstPicture`), so the mode is set the moment master is free.
  private mutating func setModeShowing<Pixel>(_ shadow: [Pixel]) throws(KMSError) {
    let front = buffers.front
    copy(shadow, area: Rect(x: 0, y: 0, width: mode.width, height: mode.height), into: front)
    damage.wroteWholeFrame(into: front)
    if let letGo = beforeFirstPicture {
      beforeFirstPicture = nil
      letGo()
    }
    if !device.isMaster {
      try device.becomeMaster(waitingMilliseconds: KMSDisplay.masterMilliseconds)
      saved = Probe.savedCrtc(crtcID, connector: connectorID, of: device)
    }
    do throws(KMSError) {
      try scanout.setMode(showing: buffers.frontFramebuffer, timing: timing, width: mode.width, height: mode.height)
    } catch {
      guard scanout.isAtomic && !isScanoutProved else { throw error }
      scanout = LegacyScanout(device: device, crtc: crtcID, connector: connectorID, output: outputName)
      try scanout.setMode(showing: buffers.frontFramebuffer, timing: timing, width: mode.width, height: mode.height)
    }
    isScanoutProved = true
    isModeSet = true
  }

  /// Copies the damage into the buffer on screen and tells the driver which part
  /// changed (`drmModeDirtyFB`): it copies only that over its link, at once, with no
  /// flip to wait for. Allocates nothing.
  ///
  /// - Returns: false when the driver has no dirty-framebuffer call (ENOSYS): in-place
  ///   updates are then off for good, and the caller flips as usual.
  private mutating func updateInPlace<Pixel>(_ shadow: [Pixel], damage frameDamage: Rect) throws(KMSError) -> Bool {
    let front = buffers.front
    let area = damage.take(frameDamage, for: front)
    copy(shadow, area: area, into: front)
    guard !area.isEmpty else { return true }
    let framebuffer = buffers.frontFramebuffer.rawValue
    let (x1, y1) = (UInt16(clamping: area.x), UInt16(clamping: area.y))
    let (x2, y2) = (UInt16(clamping: area.x + area.width), UInt16(clamping: area.y + area.height))
    if pl_drm_dirty_fb(device.descriptor, framebuffer, x1, y1, x2, y2) == 0 { return true }
    let errno = Errno.current
    guard errno == .notImplemented else { throw .callFailed(call: "drmModeDirtyFB", path: device.path, errno: errno) }
    updatesInPlace = false
    // The other buffer missed everything since the first frame.
    damage.wroteWholeFrame(into: front)
    return false
  }

  /// Switches the output off for idle blanking: an atomic commit of the CRTC's
  /// `ACTIVE` = 0 (mode and buffers kept), or on the legacy path the connector's
  /// `DPMS` property set to off (`drmModeConnectorSetProperty`). The kernel then
  /// reports `Off` in `/sys/class/drm/card*-<output>/dpms`. No flip may be queued
  /// until `switchOutputOn`. Allocates nothing.
  ///
  /// While the output is unplugged nothing is called: the CRTC is set again when it
  /// comes back (`reprobe`), which switches it on.
  ///
  /// - Precondition: no flip is pending and the output is on.
  /// - Throws: `KMSError.callFailed` when the driver refuses, `.noPowerControl` when
  ///   a legacy connector has no `DPMS` property; the output is unchanged then and
  ///   the caller blanks by showing black instead.
  public mutating func switchOutputOff() throws(KMSError) {
    precondition(!isFlipPending, "switchOutputOff while a flip is in flight")
    precondition(!isOutputOff, "switchOutputOff while the output is already off")
    if isConnected { try scanout.setPower(on: false, framebuffer: .none) }
    isOutputOff = true
  }

  /// Switches the output on again showing the whole of `shadow`.
  ///
  /// The frame is copied in full into the buffer that was on screen when the output
  /// went off (nothing scans it out while the CRTC is off), then the CRTC is made
  /// active with it: one blocking atomic commit of `ACTIVE` = 1 with the mode and the
  /// plane's `FB_ID`, or the legacy `DPMS` property set to on. The first picture after
  /// waking is therefore the current one, never the frame from before the blank; the
  /// other buffer is marked stale everywhere so the next `present` copies it in full.
  /// No flip event follows. Allocates nothing.
  ///
  /// - Parameter shadow: the composed frame, in the display's format and size.
  /// - Precondition: the output is off (`switchOutputOff`).
  /// - Throws: `KMSError.callFailed` when the driver refuses.
  public mutating func switchOutputOn<Pixel>(showing shadow: [Pixel]) throws(KMSError) {
    precondition(isOutputOff, "switchOutputOn while the output is on")
    if isHandedOver { return try takeBack(showing: shadow) }
    let front = buffers.front
    copy(shadow, area: Rect(x: 0, y: 0, width: mode.width, height: mode.height), into: front)
    damage.wroteWholeFrame(into: front)
    if isConnected { try scanout.setPower(on: true, framebuffer: buffers.frontFramebuffer) }
    isOutputOff = false
  }

  /// Gives up DRM master so that a kiosk's logind session can take the display when
  /// its VT becomes active. The CRTC keeps scanning out the frame on screen until the
  /// kiosk sets its own, so no console shows in between (the console's framebuffer
  /// is put back only by `deinit`). `switchOutputOn` takes the display back.
  ///
  /// - Precondition: no flip is pending and the output is on.
  public mutating func handOver() {
    precondition(!isFlipPending, "handOver while a flip is in flight")
    precondition(!isOutputOff, "handOver while the output is off")
    _ = drmDropMaster(device.descriptor)
    isHandedOver = true
    isOutputOff = true
  }

  /// After `handOver`: becomes master again (waiting up to `masterMilliseconds` for the
  /// kiosk's session to let go), puts the whole of `shadow` in the buffer that was on
  /// screen and sets the CRTC to it (the kiosk changed the mode's framebuffer), with
  /// the kiosk's cursor switched off; the other buffer is marked stale everywhere.
  private mutating func takeBack<Pixel>(showing shadow: [Pixel]) throws(KMSError) {
    try device.becomeMaster(waitingMilliseconds: KMSDisplay.masterMilliseconds)
    let front = buffers.front
    copy(shadow, area: Rect(x: 0, y: 0, width: mode.width, height: mode.height), into: front)
    damage.wroteWholeFrame(into: front)
    try setCrtc(device.descriptor, path: device.path, crtc: crtcID, framebuffer: buffers.frontFramebuffer, connector: connectorID, timing: timing)
    _ = drmModeSetCursor(device.descriptor, crtcID.rawValue, 0, 0, 0)
    isHandedOver = false
    isOutputOff = false
  }

  /// How long taking the display back may wait for DRM master.
  static let masterMilliseconds = 3000

  /// Reads the DRM fd's events (call when `poll` says it is readable).
  ///
  /// - Returns: the time of a completed flip, in CLOCK_MONOTONIC microseconds, or nil
  ///   when the events held none.
  /// - Throws: `KMSError.callFailed` when `drmHandleEvent` fails.
  public mutating func handleEvents() throws(KMSError) -> UInt64? {
    // Version 2: libdrm then calls page_flip_handler for atomic commits' flip events
    // too (page_flip_handler2, which adds the CRTC, is only looked at from version 3).
    var context = drmEventContext()
    context.version = 2
    context.page_flip_handler = FlipMailbox.handler
    let fd = device.descriptor
    try systemCall("drmHandleEvent", on: device.path) { drmHandleEvent(fd, &context) }
    guard let time = mailbox.take() else { return nil }
    isFlipPending = false
    buffers.swap()
    return time
  }

  /// Looks at the connector again after a udev `change` event on the card.
  ///
  /// A connector that went away stops `present` (the process keeps running); when it
  /// comes back with the same mode, the CRTC is set again and the next present
  /// copies the whole frame.
  ///
  /// - Returns: what changed.
  /// - Throws: `KMSError.callFailed` when setting the CRTC again fails.
  public mutating func reprobe() throws(KMSError) -> HotplugChange {
    let now = Probe.connector(connectorID, of: device)
    let connected = now.map { c in c.isConnected && c.modes.contains { $0.width == mode.width && $0.height == mode.height } } ?? false
    switch (isConnected, connected) {
    case (true, false):
      isConnected = false
      return .disconnected
    case (false, true) where !isModeSet:
      // Nothing shown yet: the first present sets the mode.
      isConnected = true
      return .reconnected
    case (false, true):
      try setCrtc(
        device.descriptor, path: device.path, crtc: crtcID, framebuffer: buffers.frontFramebuffer, connector: connectorID,
        timing: timing)
      isConnected = true
      // SetCrtc switches the output on; a blanked screen is switched off again by
      // the caller, which redraws everything after a reconnect.
      isOutputOff = false
      // A flip queued before the unplug never completes; its event is lost.
      isFlipPending = false
      damage.invalidate()
      return .reconnected
    default:
      return .unchanged
    }
  }

  /// Copies `area` of the composed frame into scan-out buffer `index` (write-only).
  private func copy<Pixel>(_ shadow: [Pixel], area: Rect, into index: Int) {
    let bytesPerPixel = Int(format.bitsPerPixel ?? 32) / 8
    let (w, h) = (mode.width, mode.height)
    shadow.withUnsafeBytes { source in
      buffers.copy(source, into: index, width: w, height: h, bytesPerPixel: bytesPerPixel, area: area)
    }
  }

  // MARK: Steps

  /// The card and its output by `CardChoice`'s rule, over `--device` alone or every
  /// `/dev/dri/card*` (whose numbers change from boot to boot on a Raspberry Pi, so
  /// card0 is never assumed).
  private static func choose(_ options: KMSOptions) throws(KMSError) -> (path: String, choice: CardChoice) {
    var paths: [String]
    if let named = options.devicePath { paths = [named] } else { paths = try Probe.cardPaths(in: options.directory) }
    var probes: [CardProbe] = []
    for path in paths { probes.append(Probe.card(at: path)) }
    // One card named with --device: its own failure (permissions, not a display card)
    // is the error, as it says what to do about that card.
    if options.devicePath != nil, let failure = probes[0].failure { throw failure }
    let choice = try CardChoice.choose(among: probes, output: options.outputName, directory: options.directory)
    return (probes[choice.card].path, choice)
  }

  /// The buffers' format: `format =`, or RGB565 where the driver prefers 16 bits and
  /// the primary plane shows it, else XRGB8888 (`ScanoutFormat.choose`).
  private static func scanoutFormat(
    _ requested: FourCC?, crtc: CRTCID, _ resources: Probe.Resources, output: String, of device: borrowing DrmDevice
  ) throws(KMSError) -> FourCC {
    // Without the universal-planes cap the primary plane is not listed; the cap changes
    // nothing else for the legacy path.
    _ = drmSetClientCap(device.descriptor, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
    let index = resources.crtcs.firstIndex(of: crtc) ?? 0
    let offered = index < 32 ? ScanoutFormat.primaryPlaneFormats(crtcIndex: index, of: device) : []
    let depth = ScanoutFormat.preferredDepth(of: device)
    guard let format = ScanoutFormat.choose(requested: requested, planeFormats: offered, preferredDepth: depth) else {
      throw .unsupportedFormat(
        path: device.path, output: output, format: requested?.name ?? "XR24 or RG16", offered: ScanoutFormat.names(offered))
    }
    return format
  }

  /// The pipeline of the first modeset, proved by a test-only commit when `testing`
  /// (which needs master). Nil when atomic is not offered, is refused, or `forceLegacy`
  /// is set: the legacy way then.
  private static func atomicModeset(
    _ device: borrowing DrmDevice, _ options: KMSOptions, crtc: CRTCID, connector: ConnectorID, timing: drmModeModeInfo,
    _ resources: Probe.Resources, framebuffer: FramebufferID, mode: DisplayMode, testing: Bool
  ) -> AtomicPipeline? {
    if options.forceLegacy { return nil }
    guard let pipeline = Probe.atomicPipeline(crtc: crtc, connector: connector, timing: timing, resources, of: device) else {
      return nil
    }
    guard testing else { return pipeline }
    // Tested only: the first `present` commits it. A refused test changed nothing; the
    // pipeline's deinit frees the mode blob.
    guard pipeline.modeset(framebuffer: framebuffer, width: mode.width, height: mode.height, testOnly: true) else { return nil }
    return pipeline
  }

  private static func modeList(_ modes: [DisplayMode]) -> String {
    var text = ""
    for (i, m) in modes.enumerated() where !modes[..<i].contains(m) {
      if !text.isEmpty { text += ", " }
      text += m.text
    }
    return text
  }
}

/// What a re-probe after a hotplug event found.
public enum HotplugChange: Sendable, Equatable {
  case unchanged
  /// The output went away: nothing is drawn until it returns.
  case disconnected
  /// The output came back: redraw everything.
  case reconnected
}
