import PatternCore
import SystemCalls

/// The service watchdog systemd set for this process (`WatchdogSec=`), as
/// sd_watchdog_enabled(3) reads it.
public enum WatchdogTimeout {
  /// The timeout in microseconds (`WATCHDOG_USEC`), or nil when none is set, or when
  /// `WATCHDOG_PID` says it is meant for another process (a child that inherited the
  /// environment).
  public static func forThisProcess() -> UInt64? {
    guard let text = CurrentProcess.environmentVariable("WATCHDOG_USEC"), let usec = DecimalInteger.parse(text), usec > 0
    else { return nil }
    if let pid = CurrentProcess.environmentVariable("WATCHDOG_PID"),
      DecimalInteger.parse(pid) != Int(CurrentProcess.id.rawValue)
    {
      return nil
    }
    return UInt64(usec)
  }
}
