import CShim
import SystemCalls

/// A file that exists in memory only (memfd_create(2), close-on-exec), closed (and gone)
/// when this value ends: a secret for a tool that reads it by path, such as `/dev/fd/3`
/// of a child it is handed to, without it ever reaching a disk.
struct MemoryFile: ~Copyable {
  let file: FileDescriptor

  /// - Parameter name: what /proc shows for it (`memfd:NAME`); no path anyone can open.
  init(named name: String) throws(Errno) {
    file = FileDescriptor(owning: try retryingInterrupts { name.withCString { pl_memory_file($0, 0) } })
  }
}
