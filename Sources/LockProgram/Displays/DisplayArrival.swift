import CommandKit
import Input
import KMS
import SystemCalls

/// Opening the KMS display, waiting for it to appear when it is not there yet.
///
/// At boot the lock's unit may start before the display driver has bound (virtio-gpu
/// and vc4 load as modules, after udev's coldplug). Failing then costs a restart a
/// second for as long as the driver takes, with a message per try in the journal;
/// waiting here starts the lock once. Udev's `drm` events say when to look again; a
/// short timeout besides covers a system without udev (the emulated board's
/// initramfs) and an event missed between a try and the wait.
package enum DisplayArrival {
  /// How often to look again without an event.
  package static let retryMilliseconds: Int32 = 250

  /// The KMS display, tried at once and then on every DRM event or retry tick until
  /// `seconds` have passed.
  ///
  /// - Throws: the last `KMSError` once the time is up, at once for an error that
  ///   waiting cannot mend (permissions, a DRM master, an unknown mode).
  package static func open(_ options: KMSOptions, waitingUpTo seconds: Int) throws(KMSError) -> KMSDisplay {
    // Listening starts before the first try, so a card bound between the try and the
    // wait still wakes it.
    let monitor = try? UdevMonitor(subsystem: "drm")
    let deadline = MonotonicClock.microseconds() &+ UInt64(max(0, seconds)) &* 1_000_000
    var announced = false
    var watchdog = WatchdogPings()
    while true {
      do throws(KMSError) {
        return try KMSDisplay(options: options)
      } catch {
        let now = MonotonicClock.microseconds()
        guard isNotThereYet(error, named: options.devicePath != nil), now < deadline else { throw error }
        if !announced {
          Console.error("\(error.message); waiting up to \(seconds) s for a display driver to bind (display-wait-s)")
          announced = true
        }
        watchdog.pingIfDue(now)
        let left = Int32(min(UInt64(retryMilliseconds), (deadline &- now) / 1000 + 1))
        waitForEvent(monitor, milliseconds: left)
      }
    }
  }

  /// Whether `error` says the display has not appeared yet (rather than that one failed).
  /// A render-only card is the only card until the display driver binds (v3d before
  /// vc4), but a card named with `device` that is not a display will never become one.
  /// A node that is there but answers ENODEV or ENOENT is one the driver is still
  /// binding (seen on trixie: the card's node before virtio-gpu was ready).
  package static func isNotThereYet(_ error: KMSError, named: Bool = false) -> Bool {
    switch error {
    case .noDevice, .noConnectedOutput: return true
    case .notModesetting: return !named
    case .callFailed(_, _, let errno): return errno == .noDevice || errno == .noEntry
    default: return false
    }
  }

  /// Sleeps until a `drm` uevent or `milliseconds`, whichever comes first.
  private static func waitForEvent(_ monitor: borrowing UdevMonitor?, milliseconds: Int32) {
    switch monitor {
    case .some(let udev):
      var set = PollSet(capacity: 1)
      let source = set.add("udev drm", descriptor: udev.pollDescriptor)
      if (try? set.wait(milliseconds: milliseconds)) == true, set.isReady(source) { _ = udev.drain() }
    case .none:
      sleep(milliseconds: Int(milliseconds))
    }
  }
}

/// The watchdog pings owed while the lock is not yet in its loop (a wait for the
/// display may outlast half of `WatchdogSec`).
package struct WatchdogPings {
  private let interval = ServiceManager.watchdogPingInterval()
  private var last: UInt64 = 0

  package mutating func pingIfDue(_ now: UInt64) {
    guard let interval, now &- last >= interval else { return }
    ServiceManager.notify("WATCHDOG=1")
    last = now
  }
}
