import PatternCore
import SystemCalls

/// Turns a monotonic time (microseconds) into the two clocks the Vault's policy reads:
/// the monotonic one, on which lockouts run, and the wall one, stored in the attempts
/// file and used by the 5-minute repeat rule.
///
/// Live (`run`), the wall clock is read at each attempt. In a replay the monotonic time
/// is the recording's, so the wall clock is made to follow it: the wall time when the
/// replay started plus the recording time since its first event. A replay then decides
/// exactly as the device would have at those moments, however fast it runs. Live
/// instants carry this boot's identity, so that every process of one boot measures a
/// stored lockout from where it began.
package struct UnlockClock {
  /// The recording's first event and the wall time it is taken to have happened at;
  /// nil for the live clock.
  private let origin: (monotonic: UInt64, wallSeconds: Int64)?

  /// The device's clocks (CLOCK_MONOTONIC read straight from the kernel, CLOCK_REALTIME).
  package static let live = UnlockClock(origin: nil)

  /// This boot (Linux's boot_id), read once; nil where it cannot be read, and then no
  /// lockout stored by another process is believed to have begun in this boot.
  ///
  /// Also nil in a time namespace that shifts the clocks: the monotonic times of such
  /// a process cannot be compared with those other processes stored (a shift of a day
  /// would end every lockout at once), so for it every stored lockout starts again in
  /// full, and what it stores carries no boot, so no other process believes its times
  /// either. Within one process a namespace's clocks still run at the true rate.
  package static let currentBoot: BootIdentity? = {
    // Offsets that cannot be read count as shifted.
    guard (try? TimeNamespace.isShiftingThisProcess()) == false, let boot = try? BootID.current() else { return nil }
    return BootIdentity(high: boot.high, low: boot.low)
  }()

  /// A recording's clock that starts now, at its event time `first`. Its instants
  /// belong to no boot: a lockout stored by the device restarts at the first event.
  package static func recording(startingAt first: UInt64) -> UnlockClock {
    UnlockClock(origin: (first, WallClock.seconds()))
  }

  private init(origin: (monotonic: UInt64, wallSeconds: Int64)?) {
    self.origin = origin
  }

  /// Now on both clocks, for a monotonic time `monotonic`.
  package func instant(_ monotonic: UInt64) -> UnlockInstant {
    guard let origin else {
      return UnlockInstant(monotonicMicroseconds: monotonic, wallSeconds: WallClock.seconds(), boot: UnlockClock.currentBoot)
    }
    // A recording's clock may step back (a second device in the file): no time passed.
    let elapsed = monotonic >= origin.monotonic ? monotonic - origin.monotonic : 0
    return UnlockInstant(monotonicMicroseconds: monotonic, wallSeconds: origin.wallSeconds + Int64(elapsed / 1_000_000))
  }
}
