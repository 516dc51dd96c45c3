import CWayland
import CWaylandShim
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls

/// The session lock over one Wayland connection: the compositor's globals, one lock
/// surface per output (made and destroyed as outputs come and go), the lock's state,
/// and the seat's input for the surface the lock is drawn on.
///
/// Everything the compositor says arrives through CWaylandShim's ring and is applied
/// in `process()`. Every output's surface has a picture of the lock laid out for its
/// own frames (`attach`); the gesture tracker uses the first output's layout, and the
/// seat's input on any output is mapped onto it (`SeatInput`). The output the last
/// gesture started on shows the lock's state whole, every other output the state
/// without the pattern (`LockScreenState.shown(ownsGesture:grid:)`). A lock that
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
  /// The surface whose layout the gesture tracker uses (its tag), 0 before `lockSession`.
  var trackerTag: UInt32 = 0
  var seatInput: SeatInput?
  /// The lock's state the outputs are to show (`show(state:)`); each catches up when
  /// its buffers allow.
  var wanted: LockScreenState?
  var pendingInput: [InputEvent] = []
  var frameDone: UInt64?
  /// The frames or pictures no longer fit an output: `prepareFrames` and `attach`
  /// make them again (`SessionLockDisplay.hotplug`).
  public internal(set) var framesStale = false
  /// What an output shows until it has a picture (XRGB8888).
  public var background: UInt32 = 0xff00_0000
  /// The first failure seen while processing events; thrown by the next call.
  public internal(set) var failure: WaylandError?
  /// The compositor confirmed the lock: the session is locked until `unlock()`.
  public internal(set) var isLocked = false
  /// The tracker's output's frame size in pixels (`prepareFrames`).
  public var frameWidth: Int { trackerSurface?.frameWidth ?? 0 }
  public var frameHeight: Int { trackerSurface?.frameHeight ?? 0 }

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
  /// returns once the first output's surface (the tracker's) has its size.
  ///
  /// - Throws: `.lockRefused` when the compositor says `finished`, `.noOutput` when it
  ///   has no output or gives no size within `timeoutMilliseconds`.
  public func lockSession(timeoutMilliseconds: Int = 5000) throws(WaylandError) {
    guard let manager, !outputs.isEmpty else { throw .noOutput }
    guard let made = ext_session_lock_manager_v1_lock(manager) else { throw .connectionLost(errno: .current) }
    plw_listen_lock(made)
    lock = made
    for output in outputs { try addSurface(for: output) }
    trackerTag = surfaces.first?.tag ?? 0
    let deadline = MonotonicClock.microseconds() + UInt64(timeoutMilliseconds) * 1000
    while trackerSurface?.configured == nil {
      if let failure { throw failure }
      guard MonotonicClock.microseconds() < deadline else { throw .noOutput }
      try wait(milliseconds: 100)
    }
    // The scales the compositor prefers for the new surfaces, if it says them now.
    try roundtrip()
  }

  /// A surface's logical size and the scale (in 120ths) its frames are drawn at: the
  /// preferred fractional scale when the compositor gave one and can scale buffers,
  /// else the output's integer scale.
  func size(of surface: LockSurface) -> (width: Int, height: Int, scale120: Int) {
    guard let size = surface.configured else { return (0, 0, 120) }
    let outputScale = outputs.first(where: { $0.name == surface.outputName })?.scale ?? 1
    if viewporter != nil, let preferred = surface.preferredScale120, preferred > 0 {
      return (size.width, size.height, preferred)
    }
    return (size.width, size.height, max(outputScale, 1) * 120)
  }

  /// The frame size in pixels of a logical size at a scale: half up, as the
  /// protocol's own example rounds.
  static func frameSize(_ width: Int, _ height: Int, scale120: Int) -> (width: Int, height: Int) {
    ((width * scale120 + 60) / 120, (height * scale120 + 60) / 120)
  }

  /// Makes two buffers for every output whose surface has its size, at its scale; the
  /// pictures go (`attach` lays the lock out for the new frames).
  public func prepareFrames() throws(WaylandError) {
    guard trackerSurface?.configured != nil, let shm else { throw .noOutput }
    framesStale = false
    var index = 0
    while index < surfaces.count {
      let surface = surfaces[index]
      index += 1
      let (width, height, scale120) = size(of: surface)
      guard width > 0, height > 0 else { continue }
      surface.frameScale120 = scale120
      (surface.frameWidth, surface.frameHeight) = SessionLockConnection.frameSize(width, height, scale120: scale120)
      if let viewport = surface.viewport {
        wp_viewport_set_destination(viewport, Int32(width), Int32(height))
      } else if scale120 % 120 == 0 {
        wl_surface_set_buffer_scale(surface.surface, Int32(scale120 / 120))
      }
      surface.picture = nil
      surface.buffers = []
      for buffer in 0..<2 {
        surface.buffers.append(
          try SharedMemoryBuffer(
            shm: shm, width: surface.frameWidth, height: surface.frameHeight,
            tag: LockSurface.bufferTag(surface: surface.tag, index: buffer)))
      }
      surface.damage = BufferDamage(count: 2, full: Rect(x: 0, y: 0, width: surface.frameWidth, height: surface.frameHeight))
    }
  }

  /// The outputs with frames and no picture yet, the tracker's first: each is to be
  /// laid out at its frame size and given its picture (`attach`).
  public var framesToLayOut: [(tag: UInt32, width: Int, height: Int)] {
    var list: [(tag: UInt32, width: Int, height: Int)] = []
    for surface in surfaces where surface.frameWidth > 0 && surface.picture == nil {
      let entry = (tag: surface.tag, width: surface.frameWidth, height: surface.frameHeight)
      if surface.tag == trackerTag { list.insert(entry, at: 0) } else { list.append(entry) }
    }
    return list
  }

  /// Gives output `tag` its picture of the lock, laid out by `renderer` for its frames;
  /// the tracker's output must have its own first (the others' grids are mapped onto
  /// its grid). Input is taken on every output that has one.
  public func attach(_ renderer: LockScreenRenderer, to tag: UInt32) {
    guard let surface = surface(tag) else { return }
    surface.picture = LockPicture(renderer: renderer)
    let tracker = trackerSurface?.picture?.renderer.layout ?? renderer.layout
    surface.grid = GridMapping(
      grid: renderer.layout.gridRect, reference: tracker.gridRect, button: renderer.layout.powerButtonRect,
      referenceButton: tracker.powerButtonRect
    ).placed(at: wanted?.grid ?? .home, layout: renderer.layout, reference: tracker)
    var seat: [SeatSurface] = []
    for candidate in surfaces where candidate.picture != nil {
      guard let (width, height) = candidate.configured, let picture = candidate.picture else { continue }
      let entry = SeatSurface(
        tag: candidate.tag, surfaceWidth: width, surfaceHeight: height, frameWidth: candidate.frameWidth,
        frameHeight: candidate.frameHeight, transform: picture.renderer.layout.transform, grid: candidate.grid)
      if candidate.tag == trackerTag { seat.insert(entry, at: 0) } else { seat.append(entry) }
    }
    guard !seat.isEmpty else { return }
    if seatInput == nil { seatInput = SeatInput(surfaces: seat) } else { seatInput!.replaceSurfaces(seat) }
  }

  /// The output whose layout the gesture tracker uses (the first).
  public var trackerOutput: UInt32 { trackerTag }

  /// The output that shows the pattern: the one the last gesture started on.
  public var gestureOwner: UInt32 { seatInput?.owner ?? trackerTag }

  // MARK: The loop's calls

  /// Reads and applies what the compositor sent, without blocking.
  public func dispatch() throws(WaylandError) {
    try throwPending()
    guard plw_dispatch_ready(display) == 0 else { throw .connectionLost(errno: .current) }
    process()
    try throwPending()
  }

  /// The failure seen while processing events.
  public func throwPending() throws(WaylandError) {
    if let failure { throw failure }
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

  /// When the compositor last said a frame of the gesture's output was shown (the
  /// monotonic clock's microseconds), once.
  public func takeFrameDone() -> UInt64? {
    defer { frameDone = nil }
    return frameDone
  }

  /// Whether the gesture's output cannot take a frame now: its last one is not shown
  /// yet, or the compositor holds both buffers.
  public var isFramePending: Bool {
    guard let surface = surface(gestureOwner) else { return false }
    return surface.framePending || surface.damage.free == nil
  }

  /// Shows `state` on every output, each as `LockScreenState.shown(ownsGesture:grid:)`
  /// says, drawn in its own picture; an output whose buffers are busy catches up when
  /// the compositor frees one. True when the gesture's output presented a frame.
  public func show(state: LockScreenState) throws(WaylandError) -> Bool {
    try throwPending()
    if state.grid != wanted?.grid { placeGrids(at: state.grid) }
    wanted = state
    let presented = refresh().owner
    try flush()
    return presented
  }

  /// Moves every output's grid mapping, and the seat's, to the grid placed at
  /// `placement`: each output draws its grid moved by its own layout, and a finger on
  /// it must land on the tracker's moved grid.
  func placeGrids(at placement: GridPlacement) {
    guard let reference = trackerSurface?.picture?.renderer.layout else { return }
    for surface in surfaces {
      guard let layout = surface.picture?.renderer.layout else { continue }
      surface.grid = surface.grid.placed(at: placement, layout: layout, reference: reference)
      seatInput?.moveGrid(of: surface.tag, to: surface.grid)
    }
  }

  /// Brings every output with a picture and a free buffer up to the wanted state.
  /// Returns whether the gesture's output committed a frame, and whether any did.
  /// Nothing is allocated.
  func refresh() -> (owner: Bool, committed: Bool) {
    guard let wanted else { return (false, false) }
    let owner = gestureOwner
    var presented = false
    var committed = false
    var index = 0
    while index < surfaces.count {
      let surface = surfaces[index]
      index += 1
      guard surface.picture != nil, !surface.framePending, let buffer = surface.damage.free else { continue }
      let target = wanted.shown(ownsGesture: surface.tag == owner, grid: surface.grid)
      guard surface.picture!.shown != target else { continue }
      let damage = surface.picture!.render(target)
      guard !damage.isEmpty else { continue }
      surface.picture!.frame.withUnsafeBytes { commit(surface, buffer: buffer, from: $0, damage: damage) }
      committed = true
      if surface.tag == owner { presented = true }
    }
    return (presented, committed)
  }

  /// Copies what buffer `index` misses of a frame-sized picture into it and commits it
  /// with a frame callback.
  func commit(_ surface: LockSurface, buffer index: Int, from source: UnsafeRawBufferPointer, damage: Rect) {
    let area = surface.damage.draw(into: index, damage: damage)
    let buffer = surface.buffers[index]
    let (width, height) = (surface.frameWidth, surface.frameHeight)
    _ = DamageCopy.copy(
      from: source, sourceStride: width * 4, to: buffer.memory, destinationStride: buffer.stride, width: width, height: height,
      bytesPerPixel: 4, damage: area)
    wl_surface_attach(surface.surface, buffer.buffer, 0, 0)
    wl_surface_damage_buffer(surface.surface, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
    plw_request_frame(surface.surface, surface.tag)
    surface.framePending = true
    wl_surface_commit(surface.surface)
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
