import CShim

/// Linux's time namespaces, which shift every clock of the processes inside one.
public enum TimeNamespace {
  /// Whether this process's monotonic or boot-time clock is shifted against the
  /// machine's (`pl_clock_is_shifted`, /proc/self/timens_offsets): true in a namespace
  /// with an offset that is not zero, or when the offsets exist but cannot be read;
  /// false when they are zero or the kernel has no time namespaces.
  ///
  /// - Throws: the `Errno` of reading the offsets (which a caller should take as
  ///   shifted).
  public static func isShiftingThisProcess() throws(Errno) -> Bool {
    try retryingInterrupts { pl_clock_is_shifted() } != 0
  }
}
