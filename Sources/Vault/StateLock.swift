import SystemCalls

/// The state directory's exclusive lock, held from reading the attempts record to
/// writing it back, so that no two processes ever judge against the same count.
/// Released when this value goes (closing the lock file drops the `flock`), also when
/// a throw unwinds past it; the kernel releases it when the process dies.
public struct StateLock: ~Copyable {
  /// How long a second process waits for the lock before giving up on the attempt:
  /// longer than any honest holder needs (two synced writes and one Argon2id hash),
  /// short enough that a stopped holder cannot hang a lock screen for good.
  public static let defaultWaitMicroseconds: UInt64 = 20_000_000

  /// The locked file; closing it, when this value goes, drops the `flock`.
  private let file: FileDescriptor

  init(file: consuming FileDescriptor) { self.file = file }

  /// Releases the lock now (rather than wherever the compiler ends this value's life).
  public consuming func release() {}
}
