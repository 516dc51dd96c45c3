import SystemCalls

/// When the door strike was last released, shared by what releases it (an unlock, in
/// `UnlockActions`) and what watches the door (`DoorWatch`): a door opened soon after
/// is let open, not forced. A class because the two live in different parts of the
/// loop; the process has one, made before the lock starts.
package final class StrikeReleases {
  package private(set) var lastRelease: UInt64?

  /// The strike was released now.
  package func released() { lastRelease = MonotonicClock.microseconds() }
}
