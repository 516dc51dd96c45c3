import CShim

/// The state directory's exclusive lock, held from reading the attempts record to
/// writing it back, so that no two processes ever judge against the same count.
/// Released when this value goes (closing the lock file drops the `flock`), also when
/// a throw unwinds past it; the kernel releases it when the process dies.
public struct StateLock: ~Copyable {
  /// How long a second process waits for the lock before giving up on the attempt:
  /// longer than any honest holder needs (two synced writes and one Argon2id hash),
  /// short enough that a stopped holder cannot hang a lock screen for good.
  public static let defaultWaitMicroseconds: UInt64 = 20_000_000

  private let fd: Int32

  init(fd: Int32) { self.fd = fd }

  /// Releases the lock now (rather than wherever the compiler ends this value's life).
  public consuming func release() {}

  deinit { _ = pl_close(fd) }
}
