import CShim

/// CLOCK_MONOTONIC, on which every duration of the lock runs: frames, timeouts and
/// lockouts.
public enum MonotonicClock {
  /// Now, in microseconds, read from the kernel itself (`pl_monotonic_microseconds`: a
  /// direct system call, so no preloaded library can tell the process another time).
  ///
  /// Inlinable: the loop reads it for every event and frame, and it allocates nothing.
  @inlinable
  public static func microseconds() -> UInt64 { pl_monotonic_microseconds() }
}
