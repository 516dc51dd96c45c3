import CWayland
import CWaylandShim
import PatternCore
import Raster
import SystemCalls

/// The session lock over one Wayland connection: the compositor's globals, one lock
/// surface per output (made and destroyed as outputs come and go), the lock's state,
/// and the seat's input for the surface the lock is drawn on.
///
/// Everything the compositor says arrives through CWaylandShim's ring and is applied
/// in `process()`. The lock is drawn on one output (the first the compositor
/// announced); every other output's surface shows the background colour. A lock that
/// the compositor has confirmed (`locked`) is only ever ended by `unlock()`: every
/// failure disconnects without it, and the compositor keeps the session locked.
public final class SessionLockConnection {
  private let display: OpaquePointer
  private var compositor: OpaquePointer?
  private var shm: OpaquePointer?
  private var manager: OpaquePointer?
  private var viewporter: OpaquePointer?
  private var fractionalScaleManager: OpaquePointer?
  private var seat: OpaquePointer?
  private var outputs: [Output] = []
  private var surfaces: [LockSurface] = []
  private var lock: OpaquePointer?
  private var unlocked = false
  private var nextTag: UInt32 = 1
  /// The surface the lock is drawn on (its tag), 0 before `lockSession`.
  private var drawingTag: UInt32 = 0
  private var seatInput: SeatInput?
  private var pendingInput: [InputEvent] = []
  private var frameDone: UInt64?
  /// The frames no longer fit the drawing surface (`redrawAtNewSize` is thrown).
  private var framesStale = false
  /// The scale (in 120ths) the frames were made at.
  private var frameScale120 = 120
  /// What the other outputs show (XRGB8888).
  public var background: UInt32 = 0xff00_0000
  /// The first failure seen while processing events; thrown by the next call.
  public private(set) var failure: WaylandError?
  /// The compositor confirmed the lock: the session is locked until `unlock()`.
  public private(set) var isLocked = false
  /// The frame's size in pixels (`prepareFrames`).
  public private(set) var frameWidth = 0
  public private(set) var frameHeight = 0

  /// Input events held between a dispatch and the drain that hands them on.
  static let inputCapacity = 512

  private struct Output {
    var name: UInt32
    var proxy: OpaquePointer
    var version: UInt32
    var scale: Int
  }

  /// Connects to the compositor (`name`, or $WAYLAND_DISPLAY when nil) and binds what
  /// the lock needs.
  ///
  /// - Throws: `.noDisplay` without a compositor, `.missingGlobal` when it lacks
  ///   ext_session_lock_manager_v1, wl_compositor 4 or wl_shm.
  public init(name: String?, displayLabel: String) throws(WaylandError) {
    let connected: OpaquePointer?
    if let name { connected = name.withCString { plw_connect($0) } } else { connected = plw_connect(nil) }
    guard let connected else { throw .noDisplay(name: displayLabel, errno: .current) }
    display = connected
    pendingInput.reserveCapacity(SessionLockConnection.inputCapacity)
    // The globals, then what binding them brought (outputs' scales, the seat's devices).
    try roundtrip()
    try roundtrip()
    guard manager != nil else {
      throw .missingGlobal(
        interface: "ext_session_lock_manager_v1 (the session lock protocol)",
        hint: "use a compositor that has it, such as labwc 0.7 or later, sway 1.8 or later, or Wayfire")
    }
    guard compositor != nil else { throw .missingGlobal(interface: "wl_compositor version 4", hint: "the compositor is too old to lock with") }
    guard shm != nil else { throw .missingGlobal(interface: "wl_shm", hint: "the compositor cannot take shared-memory frames") }
  }

  deinit {
    if let lock, !isLocked {
      // Never confirmed (or refused): the lock object may and must be destroyed.
      ext_session_lock_v1_destroy(lock)
    }
    // A confirmed lock is left as it is: disconnecting keeps the session locked.
    surfaces.removeAll()
    for output in outputs { release(output) }
    if let seat { wl_seat_destroy(seat) }
    if let viewporter { wp_viewporter_destroy(viewporter) }
    if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
    if let manager { ext_session_lock_manager_v1_destroy(manager) }
    if let shm { wl_shm_destroy(shm) }
    if let compositor { wl_compositor_destroy(compositor) }
    if !isLocked || unlocked { _ = plw_flush(display) }
    plw_disconnect(display)
  }

  /// The connection's descriptor, to poll for events.
  public var descriptor: Int32 { wl_display_get_fd(display) }
  /// Whether the compositor can scale the lock's buffers (wp_viewporter).
  public var hasViewporter: Bool { viewporter != nil }
  /// How many outputs are locked.
  public var outputCount: Int { outputs.count }

  // MARK: Set-up

  /// Asks the compositor to lock the session and makes a lock surface for each output;
  /// returns once the surface the lock is drawn on has its size.
  ///
  /// - Throws: `.lockRefused` when the compositor says `finished`, `.noOutput` when it
  ///   has no output or gives no size within `timeoutMilliseconds`.
  public func lockSession(timeoutMilliseconds: Int = 5000) throws(WaylandError) {
    guard let manager, !outputs.isEmpty else { throw .noOutput }
    guard let made = ext_session_lock_manager_v1_lock(manager) else { throw .connectionLost(errno: .current) }
    plw_listen_lock(made)
    lock = made
    for output in outputs { try addSurface(for: output) }
    drawingTag = surfaces.first?.tag ?? 0
    let deadline = MonotonicClock.microseconds() + UInt64(timeoutMilliseconds) * 1000
    while drawingSurface?.configured == nil {
      if let failure { throw failure }
      guard MonotonicClock.microseconds() < deadline else { throw .noOutput }
      try wait(milliseconds: 100)
    }
    // The scales the compositor prefers for the new surfaces, if it says them now.
    try roundtrip()
  }

  /// The drawing surface's logical size and the scale (in 120ths) its frames are drawn at:
  /// the preferred fractional scale when the compositor gave one and can scale
  /// buffers, else the output's integer scale.
  public var drawingSize: (width: Int, height: Int, scale120: Int) {
    guard let surface = drawingSurface, let size = surface.configured else { return (0, 0, 120) }
    let outputScale = outputs.first(where: { $0.name == surface.outputName })?.scale ?? 1
    if viewporter != nil, let preferred = surface.preferredScale120, preferred > 0 {
      return (size.width, size.height, preferred)
    }
    return (size.width, size.height, max(outputScale, 1) * 120)
  }

  /// Makes the drawing surface's two buffers for frames of the drawing size at its
  /// scale, and the input translation for them (unturned until `inputTransform` is set).
  public func prepareFrames() throws(WaylandError) {
    guard let surface = drawingSurface, let shm else { throw .noOutput }
    let (width, height, scale120) = drawingSize
    framesStale = false
    frameScale120 = scale120
    // Half up, as the protocol's own example rounds.
    frameWidth = (width * scale120 + 60) / 120
    frameHeight = (height * scale120 + 60) / 120
    if let viewport = surface.viewport {
      wp_viewport_set_destination(viewport, Int32(width), Int32(height))
    } else if scale120 % 120 == 0 {
      wl_surface_set_buffer_scale(surface.surface, Int32(scale120 / 120))
    }
    surface.buffers = []
    for index in 0..<2 {
      surface.buffers.append(
        try SharedMemoryBuffer(shm: shm, width: frameWidth, height: frameHeight, tag: LockSurface.bufferTag(surface: surface.tag, index: index)))
    }
    surface.damage = BufferDamage(count: 2, full: Rect(x: 0, y: 0, width: frameWidth, height: frameHeight))
    seatInput = SeatInput(
      drawingSurface: surface.tag, surfaceWidth: width, surfaceHeight: height, frameWidth: frameWidth, frameHeight: frameHeight,
      transform: ViewTransform(rotation: .none, panelWidth: frameWidth, panelHeight: frameHeight))
  }

  /// How input positions on the frame are turned into the lock screen's view (the
  /// layout's transform, made once the frame's size is known).
  public var inputTransform: ViewTransform? {
    get { seatInput?.transform }
    set { if let newValue { seatInput?.transform = newValue } }
  }

  // MARK: The loop's calls

  /// Reads and applies what the compositor sent, without blocking.
  public func dispatch() throws(WaylandError) {
    try throwPending()
    guard plw_dispatch_ready(display) == 0 else { throw .connectionLost(errno: .current) }
    process()
    try throwPending()
  }

  /// The failure seen while processing events, else `redrawAtNewSize` when the frames
  /// no longer fit.
  public func throwPending() throws(WaylandError) {
    if let failure { throw failure }
    if framesStale { throw .redrawAtNewSize }
  }

  /// Hands the input gathered by `dispatch` to `handle`, oldest first.
  public func takeInput(_ handle: (InputEvent) -> Void) {
    var index = 0
    while index < pendingInput.count {
      handle(pendingInput[index])
      index += 1
    }
    pendingInput.removeAll(keepingCapacity: true)
  }

  /// When the compositor last said a frame of the drawing surface was shown (the
  /// monotonic clock's microseconds), once.
  public func takeFrameDone() -> UInt64? {
    defer { frameDone = nil }
    return frameDone
  }

  /// Whether the drawing surface cannot take a frame now: its last one is not shown
  /// yet, or the compositor holds both buffers.
  public var isFramePending: Bool {
    guard let surface = drawingSurface else { return false }
    return surface.framePending || surface.damage.free == nil
  }

  /// Shows `frame` (frame-sized XRGB8888) on the drawing surface; `damage` is what
  /// changed since the last. False when no buffer is free.
  public func show(_ frame: [UInt8], damage: Rect) throws(WaylandError) -> Bool {
    try throwPending()
    guard let surface = drawingSurface, surface.configured != nil, let index = surface.damage.free else { return false }
    let area = surface.damage.draw(into: index, damage: damage)
    let buffer = surface.buffers[index]
    let (width, height) = (frameWidth, frameHeight)
    frame.withUnsafeBytes { source in
      _ = DamageCopy.copy(
        from: source, sourceStride: width * 4, to: buffer.memory, destinationStride: buffer.stride, width: width, height: height,
        bytesPerPixel: 4, damage: area)
    }
    wl_surface_attach(surface.surface, buffer.buffer, 0, 0)
    wl_surface_damage_buffer(surface.surface, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
    plw_request_frame(surface.surface, surface.tag)
    surface.framePending = true
    wl_surface_commit(surface.surface)
    try flush()
    return true
  }

  /// Ends the lock after a verified unlock: waits for the compositor's confirmation if
  /// it has not come yet (unlocking before it is not allowed), then unlocks.
  ///
  /// - Throws: `.lockRefused` when the compositor ended the lock instead; the session
  ///   is then not unlocked by this client.
  public func unlock(timeoutMilliseconds: Int = 5000) throws(WaylandError) {
    let deadline = MonotonicClock.microseconds() + UInt64(timeoutMilliseconds) * 1000
    while !isLocked {
      if let failure { throw failure }
      guard MonotonicClock.microseconds() < deadline else { throw .lockRefused }
      try wait(milliseconds: 100)
    }
    guard let lock else { throw .lockRefused }
    ext_session_lock_v1_unlock_and_destroy(lock)
    self.lock = nil
    unlocked = true
    surfaces.removeAll()
    try roundtrip()
  }

  // MARK: Events

  private var drawingSurface: LockSurface? { surface(drawingTag) }

  private func roundtrip() throws(WaylandError) {
    guard plw_roundtrip(display) == 0 else { throw .connectionLost(errno: .current) }
    process()
  }

  private func wait(milliseconds: Int32) throws(WaylandError) {
    guard plw_wait(display, milliseconds) >= 0 else { throw .connectionLost(errno: .current) }
    process()
  }

  private func flush() throws(WaylandError) {
    // EAGAIN: the socket is full; what is queued goes with the next flush.
    if plw_flush(display) != 0, Errno.current != .wouldBlock { throw .connectionLost(errno: .current) }
  }

  /// Applies every record in the ring.
  private func process() {
    var event = plw_event()
    while plw_next_event(&event) != 0 { apply(event) }
    if plw_take_overflow() != 0, failure == nil { failure = .eventsLost }
  }

  private func apply(_ event: plw_event) {
    switch event.kind {
    case PLW_GLOBAL.rawValue: bind(name: event.tag, interface: event.a, version: UInt32(max(event.b, 0)))
    case PLW_GLOBAL_REMOVE.rawValue: removeGlobal(event.tag)
    case PLW_OUTPUT_SCALE.rawValue:
      guard let index = outputs.firstIndex(where: { $0.name == event.tag }) else { return }
      outputs[index].scale = Int(max(event.a, 1))
      checkFrameScale()
    case PLW_OUTPUT_DONE.rawValue: break
    case PLW_LOCKED.rawValue: isLocked = true
    case PLW_FINISHED.rawValue:
      if failure == nil { failure = .lockRefused }
    case PLW_CONFIGURE.rawValue: configure(tag: event.tag, serial: event.serial, width: Int(event.a), height: Int(event.b))
    case PLW_PREFERRED_SCALE.rawValue:
      surface(event.tag)?.preferredScale120 = Int(event.a)
      checkFrameScale()
    case PLW_BUFFER_RELEASE.rawValue: surface(event.tag >> 1)?.damage.release(Int(event.tag & 1))
    case PLW_FRAME_DONE.rawValue:
      guard let surface = surface(event.tag) else { return }
      surface.framePending = false
      if surface.tag == drawingTag { frameDone = MonotonicClock.microseconds() }
    default:
      guard let seatEvent = SessionLockConnection.seatEvent(event) else { return }
      seatInput?.translate(seatEvent) { input in
        if pendingInput.count < SessionLockConnection.inputCapacity { pendingInput.append(input) }
      }
    }
  }

  /// The seat's ring records in SeatInput's terms.
  static func seatEvent(_ event: plw_event) -> SeatEvent? {
    switch event.kind {
    case PLW_POINTER_ENTER.rawValue: return .pointerEnter(surface: event.tag, x: event.x, y: event.y)
    case PLW_POINTER_LEAVE.rawValue: return .pointerLeave(surface: event.tag)
    case PLW_POINTER_MOTION.rawValue: return .pointerMotion(timeMilliseconds: event.time, x: event.x, y: event.y)
    case PLW_POINTER_BUTTON.rawValue:
      return .pointerButton(timeMilliseconds: event.time, button: UInt32(bitPattern: event.a), pressed: event.b != 0)
    case PLW_TOUCH_DOWN.rawValue:
      return .touchDown(surface: event.tag, id: event.a, timeMilliseconds: event.time, x: event.x, y: event.y)
    case PLW_TOUCH_MOTION.rawValue: return .touchMotion(id: event.a, timeMilliseconds: event.time, x: event.x, y: event.y)
    case PLW_TOUCH_UP.rawValue: return .touchUp(id: event.a, timeMilliseconds: event.time)
    case PLW_TOUCH_FRAME.rawValue: return .touchFrame
    case PLW_TOUCH_CANCEL.rawValue: return .touchCancel
    case PLW_KEY_PRESSED.rawValue: return .key(keysym: UInt32(bitPattern: event.a), evdevCode: UInt32(bitPattern: event.b))
    default: return nil
    }
  }

  /// The surface with `tag` (a loop by index: the per-event path allocates nothing).
  private func surface(_ tag: UInt32) -> LockSurface? {
    var index = 0
    while index < surfaces.count {
      if surfaces[index].tag == tag { return surfaces[index] }
      index += 1
    }
    return nil
  }

  private func bind(name: UInt32, interface: Int32, version: UInt32) {
    // Each at the highest version whose events CWaylandShim's listeners handle.
    func proxy(_ highest: UInt32, tag: UInt32 = 0) -> OpaquePointer? {
      plw_bind(display, name, interface, min(version, highest), tag).map { OpaquePointer($0) }
    }
    switch UInt32(bitPattern: interface) {
    case PLW_COMPOSITOR.rawValue: if version >= 4 { compositor = proxy(4) }
    case PLW_SHM.rawValue: shm = proxy(1)
    case PLW_SESSION_LOCK_MANAGER.rawValue: manager = proxy(1)
    case PLW_VIEWPORTER.rawValue: viewporter = proxy(1)
    case PLW_FRACTIONAL_SCALE_MANAGER.rawValue: fractionalScaleManager = proxy(1)
    case PLW_SEAT.rawValue: if seat == nil { seat = proxy(7) }
    case PLW_OUTPUT.rawValue:
      guard let bound = proxy(4, tag: name) else { return }
      let output = Output(name: name, proxy: bound, version: min(version, 4), scale: 1)
      outputs.append(output)
      // An output that comes while locked is locked too.
      if lock != nil, !unlocked {
        do throws(WaylandError) { try addSurface(for: output) } catch { if failure == nil { failure = error } }
      }
    default: break
    }
  }

  /// After a scale event: the frames are stale when the drawing surface's scale is no
  /// longer the one they were made at.
  private func checkFrameScale() {
    guard frameWidth > 0, drawingSurface != nil, drawingSize.scale120 != frameScale120 else { return }
    framesStale = true
  }

  private func removeGlobal(_ name: UInt32) {
    guard let index = outputs.firstIndex(where: { $0.name == name }) else { return }
    if let surfaceIndex = surfaces.firstIndex(where: { $0.outputName == name }) {
      let wasDrawing = surfaces[surfaceIndex].tag == drawingTag
      surfaces.remove(at: surfaceIndex)
      if wasDrawing {
        // The lock moves to an output that remains, once it has its size.
        if let next = surfaces.first(where: { $0.configured != nil }) {
          drawingTag = next.tag
          framesStale = true
        } else if failure == nil {
          failure = .lockOutputGone
        }
      }
    }
    release(outputs.remove(at: index))
  }

  private func release(_ output: Output) {
    if output.version >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
  }

  private func addSurface(for output: Output) throws(WaylandError) {
    guard let lock, let compositor else { return }
    let tag = nextTag
    // Tags fit beside a buffer's index bit (LockSurface.bufferTag).
    nextTag = nextTag == UInt32.max >> 1 ? 1 : nextTag + 1
    surfaces.append(
      try LockSurface(
        tag: tag, outputName: output.name, output: output.proxy, lock: lock, compositor: compositor, viewporter: viewporter,
        fractionalScaleManager: fractionalScaleManager))
  }

  private func configure(tag: UInt32, serial: UInt32, width: Int, height: Int) {
    guard let surface = surface(tag) else { return }
    ext_session_lock_surface_v1_ack_configure(surface.role, serial)
    let first = surface.configured == nil
    surface.configured = (width, height)
    if tag == drawingTag {
      // The first size makes the frames (prepareFrames); another one makes them again.
      guard !first, frameWidth > 0 else { return }
      let scale120 = drawingSize.scale120
      if (width * scale120 + 60) / 120 != frameWidth || (height * scale120 + 60) / 120 != frameHeight {
        // Until the new frames come, the old one is scaled (or, without a viewporter,
        // left as it is until the next commit brings the new size).
        if let viewport = surface.viewport {
          wp_viewport_set_destination(viewport, Int32(width), Int32(height))
          wl_surface_commit(surface.surface)
        }
        framesStale = true
      }
      return
    }
    paintBackground(surface, width: width, height: height)
  }

  /// Another output's surface: one buffer of the surface's size in the background
  /// colour (not one pixel scaled up, which a compositor may blend off by a shade).
  private func paintBackground(_ surface: LockSurface, width: Int, height: Int) {
    guard let shm, width > 0, height > 0 else { return }
    if surface.buffers.first.map({ $0.width != width || $0.height != height }) ?? true {
      do throws(WaylandError) {
        surface.buffers = [try SharedMemoryBuffer(shm: shm, width: width, height: height, tag: LockSurface.bufferTag(surface: surface.tag, index: 0))]
      } catch {
        if failure == nil { failure = error }
        return
      }
      surface.buffers[0].fill(background)
    }
    wl_surface_attach(surface.surface, surface.buffers[0].buffer, 0, 0)
    wl_surface_damage_buffer(surface.surface, 0, 0, Int32(width), Int32(height))
    wl_surface_commit(surface.surface)
  }
}
