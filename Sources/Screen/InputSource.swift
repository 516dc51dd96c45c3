import PatternCore

/// Where input comes from: libinput on the device, a `libinput record` file in a
/// replay. Events are already in the lock screen's terms (`InputEvent`, view pixels).
///
/// Used only as a generic constraint (see `Display`).
public protocol InputSource: ~Copyable {
  /// What reading input throws, carrying its message for the user.
  associatedtype Failure: DescribedError

  /// The descriptor to poll for input, or -1 for a source whose events are due at
  /// their own times (a recording: see `nextEventTime`).
  var pollDescriptor: Int32 { get }
  /// When the next event is due, for a recorded source; nil for a live one (its events
  /// come when the descriptor is readable) and once a recording has ended.
  var nextEventTime: UInt64? { get }
  /// Hands every event ready by `now` to `handle`, in order.
  mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(Failure)
}
