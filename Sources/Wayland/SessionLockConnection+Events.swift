import CWayland
import CWaylandShim
import PatternCore
import Scene
import SystemCalls

/// What the compositor says, applied: the ring's records after each dispatch, the
/// globals as they come and go (an output brings a lock surface, its removal takes one
/// away and may move the lock), sizes and scales that make the frames stale, buffer
/// releases and frame callbacks, and the seat's input for `SeatInput`.
extension SessionLockConnection {
  var trackerSurface: LockSurface? { surface(trackerTag) }

  func roundtrip() throws(WaylandError) {
    guard plw_roundtrip(display) == 0 else { throw .connectionLost(errno: .current) }
    process()
  }

  func wait(milliseconds: Int32) throws(WaylandError) {
    guard plw_wait(display, milliseconds) >= 0 else { throw .connectionLost(errno: .current) }
    process()
  }

  func flush() throws(WaylandError) {
    // EAGAIN: the socket is full; what is queued goes with the next flush.
    if plw_flush(display) != 0, Errno.current != .wouldBlock { throw .connectionLost(errno: .current) }
  }

  /// Applies every record in the ring, then lets each output catch up with the
  /// wanted state (a buffer came free, or a gesture moved to another output).
  func process() {
    var event = plw_event()
    while plw_next_event(&event) != 0 { apply(event) }
    if plw_take_overflow() != 0, failure == nil { failure = .eventsLost }
    if wanted != nil, !framesStale, failure == nil, refresh().committed {
      // EAGAIN: the socket is full; what is queued goes with the next flush.
      if plw_flush(display) != 0, Errno.current != .wouldBlock, failure == nil { failure = .connectionLost(errno: .current) }
    }
  }

  func apply(_ event: plw_event) {
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
      if surface.tag == gestureOwner { frameDone = MonotonicClock.microseconds() }
    default:
      guard let seatEvent = SessionLockConnection.seatEvent(event) else { return }
      seatInput?.translate(seatEvent, at: MonotonicClock.microseconds()) { input in
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
  func surface(_ tag: UInt32) -> LockSurface? {
    var index = 0
    while index < surfaces.count {
      if surfaces[index].tag == tag { return surfaces[index] }
      index += 1
    }
    return nil
  }

  func bind(name: UInt32, interface: Int32, version: UInt32) {
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

  /// After a scale event: the frames are stale when an output's scale is no longer the
  /// one its frames were made at.
  func checkFrameScale() {
    for surface in surfaces where surface.frameWidth > 0 && size(of: surface).scale120 != surface.frameScale120 {
      framesStale = true
    }
  }

  func removeGlobal(_ name: UInt32) {
    guard let index = outputs.firstIndex(where: { $0.name == name }) else { return }
    if let surfaceIndex = surfaces.firstIndex(where: { $0.outputName == name }) {
      let wasTracker = surfaces[surfaceIndex].tag == trackerTag
      surfaces.remove(at: surfaceIndex)
      // The outputs are laid out again (the seat's input forgets this one).
      framesStale = true
      if wasTracker {
        // The tracker moves to an output that remains, once it has its size.
        if let next = surfaces.first(where: { $0.configured != nil }) {
          trackerTag = next.tag
        } else if failure == nil {
          failure = .lockOutputGone
        }
      }
    }
    release(outputs.remove(at: index))
  }

  func release(_ output: Output) {
    if output.version >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
  }

  func addSurface(for output: Output) throws(WaylandError) {
    guard let lock, let compositor else { return }
    let tag = nextTag
    // Tags fit beside a buffer's index bit (LockSurface.bufferTag).
    nextTag = nextTag == UInt32.max >> 1 ? 1 : nextTag + 1
    surfaces.append(
      try LockSurface(
        tag: tag, outputName: output.name, output: output.proxy, lock: lock, compositor: compositor, viewporter: viewporter,
        fractionalScaleManager: fractionalScaleManager))
  }

  func configure(tag: UInt32, serial: UInt32, width: Int, height: Int) {
    guard let surface = surface(tag) else { return }
    ext_session_lock_surface_v1_ack_configure(surface.role, serial)
    surface.configured = (width, height)
    if surface.frameWidth > 0 {
      // Its frames exist: another size makes them again.
      let scale120 = size(of: surface).scale120
      if SessionLockConnection.frameSize(width, height, scale120: scale120) != (surface.frameWidth, surface.frameHeight) {
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
    // No frames yet: the background until the outputs are laid out again (the first
    // time, `prepareFrames` after `lockSession`).
    paintBackground(surface, width: width, height: height)
    if trackerSurface?.frameWidth ?? 0 > 0 { framesStale = true }
  }

  /// An output without frames: one buffer of the surface's size in the background
  /// colour (not one pixel scaled up, which a compositor may blend off by a shade).
  func paintBackground(_ surface: LockSurface, width: Int, height: Int) {
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
