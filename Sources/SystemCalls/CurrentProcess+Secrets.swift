import CShim

extension CurrentProcess {
  /// Keeps the process's memory out of core dumps and away from ptrace by other users
  /// (`pl_disable_core_dumps`: PR_SET_DUMPABLE 0 and RLIMIT_CORE 0).
  ///
  /// - Throws: prctl(2)'s or setrlimit(2)'s `Errno`.
  public static func disableCoreDumps() throws(Errno) {
    if pl_disable_core_dumps() != 0 { throw .current }
  }

  /// Locks every page of the process in memory, now and later, so nothing is written to
  /// swap (`pl_lock_all_memory`, mlockall(2)); attempted only as root, and never under
  /// AddressSanitizer.
  ///
  /// - Returns: true when locked, false when not attempted.
  /// - Throws: mlockall(2)'s `Errno`.
  @discardableResult
  public static func lockAllMemory() throws(Errno) -> Bool {
    let result = pl_lock_all_memory()
    if result < 0 { throw .current }
    return result == 0
  }
}
