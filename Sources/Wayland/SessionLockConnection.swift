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
  let display: OpaquePointer
  var compositor: OpaquePointer?
  var shm: OpaquePointer?
  var manager: OpaquePointer?
  var viewporter: OpaquePointer?
  var fractionalScaleManager: OpaquePointer?
  var seat: OpaquePointer?
  var outputs: [Output] = []
  var surfaces: [LockSurface] = []
  var lock: OpaquePointer?
  var unlocked = false
  var nextTag: UInt32 = 1
  /// The surface the lock is drawn on (its tag), 0 before `lockSession`.
  var drawingTag: UInt32 = 0
  var seatInput: SeatInput?
  var pendingInput: [InputEvent] = []
  var frameDone: UInt64?
  /// The frames no longer fit the drawing surface (`redrawAtNewSize` is thrown).
  var framesStale = false
  /// The scale (in 120ths) the frames were made at.
  var frameScale120 = 120
  /// What the other outputs show (XRGB8888).
  public var background: UInt32 = 0xff00_0000
  /// The first failure seen while processing events; thrown by the next call.
  public internal(set) var failure: WaylandError?
  /// The compositor confirmed the lock: the session is locked until `unlock()`.
  public internal(set) var isLocked = false
  /// The frame's size in pixels (`prepareFrames`).
  public private(set) var frameWidth = 0
  public private(set) var frameHeight = 0

  /// Input events held between a dispatch and the drain that hands them on.
  static let inputCapacity = 512

  struct Output {
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
}
