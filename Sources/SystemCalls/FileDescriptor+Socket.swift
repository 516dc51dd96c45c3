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
    // An interrupted attempt has closed its socket: the retry starts with a new one.
    let fd = try retryingInterrupts { path.withCString { pl_socket_connect_unix($0) } }
    return FileDescriptor(owning: fd)
  }
}

extension FileDescriptor {
  /// A stream connection to the abstract AF_UNIX socket `name` (given without its
  /// leading NUL; `pl_socket_connect_abstract`). Nothing on a file system vouches for
  /// who listens there: ask the peer's credentials before trusting it.
  ///
  /// - Throws: socket(2)'s and connect(2)'s `Errno` (ECONNREFUSED when nothing listens
  ///   by that name).
  public static func connectingAbstractUnixStream(to name: String) throws(Errno) -> FileDescriptor {
    let fd = try retryingInterrupts { name.withCString { pl_socket_connect_abstract($0) } }
    return FileDescriptor(owning: fd)
  }
}

extension FileDescriptor {
  /// A non-blocking stream connection to the AF_UNIX socket at `path`, made only when
  /// the socket there is root's or this user's (`pl_socket_connect_trusted_unix`).
  ///
  /// - Throws: `.notPermitted` for a socket of someone else's, `.notASocket` for
  ///   something else at `path`, `.noEntry`, ECONNREFUSED when nothing listens,
  ///   `.wouldBlock` when its backlog is full.
  public static func connectingTrustedUnixStream(to path: String) throws(Errno) -> FileDescriptor {
    let fd = try retryingInterrupts { path.withCString { pl_socket_connect_trusted_unix($0) } }
    return FileDescriptor(owning: fd)
  }

  /// A non-blocking AF_UNIX stream socket listening at `path`, mode 0600
  /// (`pl_socket_listen_unix`; a socket an ended process left there is replaced).
  ///
  /// - Throws: `.fileExists` when something else than a socket is at `path`, or
  ///   socket(2)'s, bind(2)'s and listen(2)'s `Errno`.
  public static func listeningUnixStream(at path: String, backlog: Int32) throws(Errno) -> FileDescriptor {
    let fd = try retryingInterrupts { path.withCString { pl_socket_listen_unix($0, backlog) } }
    return FileDescriptor(owning: fd)
  }

  /// Makes reads, writes and accepts on this descriptor give `.wouldBlock` instead of
  /// waiting (a socket systemd hands over comes blocking).
  public func setNonBlocking() throws(Errno) {
    try retryingInterrupts { pl_descriptor_set_nonblocking(rawValue) }
  }

  /// The next connection waiting on this listening socket, non-blocking; nil when none waits.
  public func acceptConnection() throws(Errno) -> FileDescriptor? {
    let fd = resultRetryingInterrupts { pl_socket_accept(rawValue) }
    if fd >= 0 { return FileDescriptor(owning: fd) }
    let errno = Errno.current
    if errno == .wouldBlock { return nil }
    throw errno
  }

  /// Sends what of `bytes` the socket's buffer takes now, without SIGPIPE.
  ///
  /// - Returns: how many bytes were sent (0 when the buffer is full).
  /// - Throws: send(2)'s `Errno` (EPIPE once the peer has gone).
  public func sendWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    let sent = resultRetryingInterrupts { pl_socket_send(rawValue, bytes.baseAddress, UInt(bytes.count)) }
    if sent >= 0 { return sent }
    let errno = Errno.current
    if errno == .wouldBlock { return 0 }
    throw errno
  }

  /// Receives what has arrived, up to `buffer.count` bytes, without waiting.
  ///
  /// - Returns: the bytes received, 0 at the end of the stream, nil when none are there.
  /// - Throws: recv(2)'s `Errno`.
  public func receiveWithoutWaiting(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
    let received = resultRetryingInterrupts { pl_socket_receive(rawValue, buffer.baseAddress, UInt(buffer.count)) }
    if received >= 0 { return received }
    let errno = Errno.current
    if errno == .wouldBlock { return nil }
    throw errno
  }
}

/// A descriptor number a poll set can watch for as long as the set lives while the
/// connection behind it comes and goes: without one it refers to an eventfd that is
/// never ready; `place` puts a connection behind the number, `empty` takes it away
/// (closing it). Made for links that reconnect inside one mode of a poll loop, whose
/// set is fixed while the mode runs.
public struct DescriptorSlot: ~Copyable {
  private let slot: FileDescriptor
  private let neverReady: FileDescriptor
  public private(set) var isFilled = false

  public init() throws(Errno) {
    let empty = FileDescriptor(owning: try retryingInterrupts { pl_descriptor_never_ready() })
    let number = try retryingInterrupts { pl_descriptor_never_ready() }
    neverReady = empty
    slot = FileDescriptor(owning: number)
  }

  /// The number to poll.
  public var rawValue: Int32 { slot.rawValue }

  /// Puts `connection` behind the slot's number (and closes the descriptor handed in:
  /// the slot's number now stands for it).
  public mutating func place(_ connection: consuming FileDescriptor) throws(Errno) {
    let from = connection.rawValue
    try retryingInterrupts { pl_descriptor_replace(from, slot.rawValue) }
    isFilled = true
  }

  /// Sends on the connection behind the slot (`FileDescriptor.sendWithoutWaiting`).
  public func sendWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try slot.sendWithoutWaiting(bytes)
  }

  /// Receives from the connection behind the slot (`FileDescriptor.receiveWithoutWaiting`).
  public func receiveWithoutWaiting(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
    try slot.receiveWithoutWaiting(into: buffer)
  }

  /// Closes the connection behind the slot; its number is never ready again until `place`.
  public mutating func empty() {
    _ = resultRetryingInterrupts { pl_descriptor_replace(neverReady.rawValue, slot.rawValue) }
    isFilled = false
  }
}
