import CShim
import PatternCore

/// Turns a monotonic time (microseconds) into the two clocks the Vault's policy reads:
/// the monotonic one, on which lockouts run, and the wall one, stored in the attempts
/// file and used by the 5-minute repeat rule.
///
/// Live (`run`), the wall clock is read at each attempt. In a replay the monotonic time
/// is the recording's, so the wall clock is made to follow it: the wall time when the
/// replay started plus the recording time since its first event. A replay then decides
/// exactly as the device would have at those moments, however fast it runs.
struct UnlockClock {
  /// The recording's first event and the wall time it is taken to have happened at;
  /// nil for the live clock.
  private let origin: (monotonic: UInt64, wallSeconds: Int64)?

  /// The device's clocks (CLOCK_MONOTONIC, CLOCK_REALTIME).
  static let live = UnlockClock(origin: nil)

  /// A recording's clock that starts now, at its event time `first`.
  static func recording(startingAt first: UInt64) -> UnlockClock {
    UnlockClock(origin: (first, pl_wall_seconds()))
  }

  private init(origin: (monotonic: UInt64, wallSeconds: Int64)?) {
    self.origin = origin
  }

  /// Now on both clocks, for a monotonic time `monotonic`.
  func instant(_ monotonic: UInt64) -> UnlockInstant {
    guard let origin else { return UnlockInstant(monotonicMicroseconds: monotonic, wallSeconds: pl_wall_seconds()) }
    // A recording's clock may step back (a second device in the file): no time passed.
    let elapsed = monotonic >= origin.monotonic ? monotonic - origin.monotonic : 0
    return UnlockInstant(monotonicMicroseconds: monotonic, wallSeconds: origin.wallSeconds + Int64(elapsed / 1_000_000))
  }
}
