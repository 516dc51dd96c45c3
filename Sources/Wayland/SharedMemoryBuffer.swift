import CWayland
import CWaylandShim
import SystemCalls

/// One XRGB8888 `wl_buffer` in a shared-memory file of its own (memfd), mapped here
/// for drawing. Made before the lock's loop starts; the loop only copies into it.
final class SharedMemoryBuffer {
  let width: Int
  let height: Int
  var stride: Int { width * 4 }
  let buffer: OpaquePointer
  let memory: UnsafeMutableRawBufferPointer
  private let pool: OpaquePointer
  /// The memfd, kept open for the compositor's sake until the buffer goes.
  private let file: FileDescriptor

  /// A buffer of `width` x `height` pixels from `shm`, reporting its release with `tag`.
  init(shm: OpaquePointer, width: Int, height: Int, tag: UInt32) throws(WaylandError) {
    let bytes = width * height * 4
    var mapped: UnsafeMutableRawPointer? = nil
    let fd = plw_shm_file(bytes, &mapped)
    guard fd >= 0, let mapped else { throw .sharedMemory(bytes: bytes, errno: Errno.current) }
    guard let pool = wl_shm_create_pool(shm, fd, Int32(bytes)) else {
      plw_shm_unmap(mapped, bytes)
      FileDescriptor(owning: fd).close()
      throw .sharedMemory(bytes: bytes, errno: Errno.current)
    }
    guard let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(width * 4), UInt32(WL_SHM_FORMAT_XRGB8888.rawValue)) else {
      wl_shm_pool_destroy(pool)
      plw_shm_unmap(mapped, bytes)
      FileDescriptor(owning: fd).close()
      throw .sharedMemory(bytes: bytes, errno: Errno.current)
    }
    plw_listen_buffer(buffer, tag)
    self.width = width
    self.height = height
    self.pool = pool
    self.buffer = buffer
    self.file = FileDescriptor(owning: fd)
    self.memory = UnsafeMutableRawBufferPointer(start: mapped, count: bytes)
  }

  /// Fills the whole buffer with one XRGB8888 colour.
  func fill(_ colour: UInt32) {
    let pixels = memory.bindMemory(to: UInt32.self)
    for index in pixels.indices { pixels[index] = colour }
  }

  deinit {
    wl_buffer_destroy(buffer)
    wl_shm_pool_destroy(pool)
    plw_shm_unmap(memory.baseAddress, memory.count)
  }
}
