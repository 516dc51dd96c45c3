import Foundation
import Glibc

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`: what a service tells
/// its manager (`READY=1`, `WATCHDOG=1`) arrives here.
public final class NotifyListener {
  public let path: String
  private let fd: Int32

  /// Binds `notify.socket` in `directory`; reads wait up to 2 s.
  public init(in directory: URL) throws {
    path = directory.appendingPathComponent("notify.socket").path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, bound == 0 else { throw CocoaError(.fileWriteUnknown) }
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit {
    close(fd)
    unlink(path)
  }

  /// The environment that points a child process at this socket.
  public var environment: [String: String] { ["NOTIFY_SOCKET": path] }

  /// The next datagram, waiting up to 2 s; "<nothing>" when none came.
  public func next() -> String {
    var buffer = [UInt8](repeating: 0, count: 512)
    let n = recv(fd, &buffer, buffer.count, 0)
    return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : "<nothing>"
  }

  /// The lines of every datagram already waiting (after the process has ended).
  public func received() -> [String] {
    var lines: [String] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while true {
      let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      guard n > 0 else { return lines }
      lines += String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").map(String.init)
    }
  }
}
