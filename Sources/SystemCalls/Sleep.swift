import CShim

/// Sleeps for `microseconds` in all, however often a signal interrupts the sleep.
///
/// A plain retry would start the whole sleep again after each signal; this sleeps
/// only what the interrupted one left.
///
/// - Parameter microseconds: how long to sleep.
public func sleep(microseconds: UInt64) {
  var remaining = microseconds
  while remaining > 0 {
    var left: UInt64 = 0
    if pl_sleep_microseconds(remaining, &left) == 0 || Errno.current != .interrupted { return }
    remaining = left
  }
}

/// `sleep(microseconds:)` in milliseconds.
///
/// - Parameter milliseconds: how long to sleep.
public func sleep(milliseconds: Int) {
  sleep(microseconds: UInt64(max(milliseconds, 0)) * 1000)
}
