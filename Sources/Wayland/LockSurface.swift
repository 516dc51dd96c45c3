import CWayland
import CWaylandShim
import PatternCore
import Raster
import Screen
import SystemCalls

/// One output's lock surface: its `wl_surface`, the lock's role on it, its viewport
/// and fractional scale when the compositor has them, its size from the last
/// configure, its two buffers and the picture of the lock laid out for its frames
/// (until it has one, one buffer filled with the background).
final class LockSurface {
  /// How the Swift side names this surface in ring records and buffer tags.
  let tag: UInt32
  /// The registry name of the output it covers.
  let outputName: UInt32
  let surface: OpaquePointer
  let role: OpaquePointer
  let viewport: OpaquePointer?
  let fractionalScale: OpaquePointer?
  /// The size the compositor asked for (logical units); nil before the first configure.
  var configured: (width: Int, height: Int)?
  /// The compositor's preferred scale in 120ths, when it said one.
  var preferredScale120: Int?
  var buffers: [SharedMemoryBuffer] = []
  var damage = BufferDamage(count: 0, full: .empty)
  /// A frame callback asked for and not yet done.
  var framePending = false
  /// The frames' size in pixels and the scale (in 120ths) they were made at.
  var frameWidth = 0
  var frameHeight = 0
  var frameScale120 = 120
  /// The lock laid out for the frames; nil until `attach`.
  var picture: LockPicture<XRGB8888>?
  /// How this output's grid lands on the tracker's.
  var grid = GridMapping.identity(.empty)

  init(tag: UInt32, outputName: UInt32, output: OpaquePointer, lock: OpaquePointer, compositor: OpaquePointer,
       viewporter: OpaquePointer?, fractionalScaleManager: OpaquePointer?) throws(WaylandError) {
    guard let surface = wl_compositor_create_surface(compositor) else { throw .connectionLost(errno: .current) }
    wl_surface_set_user_data(surface, UnsafeMutableRawPointer(bitPattern: UInt(tag)))
    guard let role = ext_session_lock_v1_get_lock_surface(lock, surface, output) else {
      wl_surface_destroy(surface)
      throw .connectionLost(errno: .current)
    }
    plw_listen_lock_surface(role, tag)
    self.viewport = viewporter.flatMap { wp_viewporter_get_viewport($0, surface) }
    let scale = fractionalScaleManager.flatMap { wp_fractional_scale_manager_v1_get_fractional_scale($0, surface) }
    if let scale { plw_listen_fractional_scale(scale, tag) }
    self.fractionalScale = scale
    self.tag = tag
    self.outputName = outputName
    self.surface = surface
    self.role = role
  }

  /// The tag of buffer `index` of surface `tag`.
  static func bufferTag(surface tag: UInt32, index: Int) -> UInt32 { tag << 1 | UInt32(index) }

  deinit {
    buffers.removeAll()
    if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
    if let viewport { wp_viewport_destroy(viewport) }
    ext_session_lock_surface_v1_destroy(role)
    wl_surface_destroy(surface)
  }
}
