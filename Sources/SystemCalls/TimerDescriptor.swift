import CShim

/// A one-shot CLOCK_MONOTONIC timer a loop polls (timerfd(2)): readable once it fired.
public struct TimerDescriptor: ~Copyable {
  private let file: FileDescriptor

  /// Creates the timer, unarmed, non-blocking and close-on-exec (`pl_timerfd_create`).
  ///
  /// - Throws: timerfd_create(2)'s `Errno`.
  public init() throws(Errno) {
    file = FileDescriptor(owning: try retryingInterrupts { pl_timerfd_create() })
  }

  /// The descriptor to poll, valid while this value lives.
  public var rawValue: Int32 { file.rawValue }

  /// Arms the timer to fire once, `microseconds` from now (0 disarms it), replacing
  /// what it was armed for (`pl_timerfd_arm`).
  ///
  /// - Throws: timerfd_settime(2)'s `Errno`.
  public func arm(microseconds: UInt64) throws(Errno) {
    let fd = file.rawValue
    try retryingInterrupts { pl_timerfd_arm(fd, microseconds) }
  }

  /// Takes the number of expiries since the last read (`pl_timerfd_read`), retrying
  /// `EINTR`: 0 when it has not fired.
  ///
  /// - Throws: read(2)'s `Errno`.
  public func expirations() throws(Errno) -> UInt64 {
    let fd = file.rawValue
    return UInt64(try retryingInterrupts { pl_timerfd_read(fd) })
  }
}
