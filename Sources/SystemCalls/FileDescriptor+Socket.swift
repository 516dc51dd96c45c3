import CShim

/// The process at the other end of a connected AF_UNIX socket, as the kernel recorded
/// it at `connect` (SO_PEERCRED): what a service that judges for others logs.
public struct PeerCredentials: Equatable, Sendable {
  public var process: ProcessID
  public var user: UserID
  public var group: GroupID

  public init(process: ProcessID, user: UserID, group: GroupID) {
    self.process = process
    self.user = user
    self.group = group
  }
}

extension FileDescriptor {
  /// Who connected to this socket (`pl_socket_peer_credentials`).
  ///
  /// - Throws: `Errno.notASocket` when the descriptor is no socket, or getsockopt(2)'s
  ///   other errors.
  public func peerCredentials() throws(Errno) -> PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard pl_socket_peer_credentials(rawValue, &pid, &uid, &gid) == 0 else { throw Errno.current }
    return PeerCredentials(process: ProcessID(rawValue: pid), user: UserID(rawValue: uid), group: GroupID(rawValue: gid))
  }

  /// Makes each read of this socket give up with `Errno.wouldBlock` after
  /// `microseconds` without data (SO_RCVTIMEO), so that a peer that connects and says
  /// nothing cannot hold the reader.
  public func setReceiveTimeout(microseconds: Int64) throws(Errno) {
    guard pl_socket_set_receive_timeout(rawValue, microseconds) == 0 else { throw Errno.current }
  }

  /// A stream connection to the AF_UNIX socket at `path` (`pl_socket_connect_unix`).
  ///
  /// - Throws: socket(2)'s and connect(2)'s `Errno` (`.noEntry` when nothing listens
  ///   there, `.permissionDenied` when this user may not connect).
  public static func connectingUnixStream(to path: String) throws(Errno) -> FileDescriptor {
    let fd = path.withCString { pl_socket_connect_unix($0) }
    guard fd >= 0 else { throw Errno.current }
    return FileDescriptor(owning: fd)
  }
}
