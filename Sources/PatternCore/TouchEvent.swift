/// One touch sample, already mapped to the panel's pixels and to the user's view.
///
/// Live input (libinput) and replayed recordings both produce these, so the gesture
/// tracker cannot tell one from the other.
public struct TouchEvent: Hashable, Sendable {
  /// What happened to the contact.
  public enum Kind: UInt8, Sendable {
    /// A finger touched down (or a pointer button was pressed).
    case down
    /// A finger that is down moved.
    case motion
    /// A finger lifted.
    case up
    /// The system took the touch away (palm, device removed): drop the gesture.
    case cancel
    /// The end of one hardware frame: everything before it happened at once.
    case frame
  }

  public var kind: Kind
  /// The contact's slot; distinct fingers down at the same time have distinct slots.
  public var slot: Int32
  /// Where the contact is, in view pixels (meaningless for `cancel` and `frame`).
  public var position: Point
  /// When, in microseconds, on the clock of the device or recording.
  public var timeMicroseconds: UInt64

  @inlinable public init(kind: Kind, slot: Int32, position: Point, timeMicroseconds: UInt64) {
    self.kind = kind
    self.slot = slot
    self.position = position
    self.timeMicroseconds = timeMicroseconds
  }
}
