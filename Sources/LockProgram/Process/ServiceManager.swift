import Systemd

/// Tells systemd how the lock is doing, for `Type=notify` units: READY once the lock
/// is on screen (so units ordered after it start only then), and WATCHDOG pings while
/// the loop runs (so a hung lock is killed and restarted, never left frozen).
///
/// Spoken through Systemd's `NotifySocket`: no libsystemd on the device. Outside
/// systemd every call does nothing.
package enum ServiceManager {
  /// Sends one state line, such as `READY=1`; failures are ignored (the lock must run
  /// on whether or not a service manager listens).
  package static func notify(_ state: StaticString) {
    _ = try? NotifySocket.send(state)
  }

  /// How often to ping the watchdog (half its timeout), in microseconds, or nil when
  /// systemd set none for this process.
  package static func watchdogPingInterval() -> UInt64? {
    WatchdogTimeout.forThisProcess().map { $0 / 2 }
  }
}
