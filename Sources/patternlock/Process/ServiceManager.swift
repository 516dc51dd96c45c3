import CShim
import PatternCore
import SystemCalls

/// Tells systemd how the lock is doing, for `Type=notify` units: READY once the lock
/// is on screen (so units ordered after it start only then), and WATCHDOG pings while
/// the loop runs (so a hung lock is killed and restarted, never left frozen).
///
/// Spoken through `pl_sd_notify` (the datagram protocol itself): no libsystemd on
/// the device. Outside systemd every call does nothing.
enum ServiceManager {
  /// Sends one state line, such as `READY=1`; failures are ignored (the lock must run
  /// on whether or not a service manager listens).
  static func notify(_ state: StaticString) {
    state.withUTF8Buffer { bytes in
      // StaticString literals are NUL-terminated.
      bytes.baseAddress.map { $0.withMemoryRebound(to: CChar.self, capacity: bytes.count + 1) { line in _ = resultRetryingInterrupts { pl_sd_notify(line) } } }
    }
  }

  /// How often to ping the watchdog (half its timeout), in microseconds, or nil when
  /// systemd set none for this process.
  static func watchdogPingInterval() -> UInt64? {
    guard let text = pl_getenv("WATCHDOG_USEC"), let usec = DecimalInteger.parse(String(cString: text)), usec > 0 else {
      return nil
    }
    if let pid = pl_getenv("WATCHDOG_PID"), DecimalInteger.parse(String(cString: pid)) != Int(pl_getpid()) { return nil }
    return UInt64(usec) / 2
  }
}
