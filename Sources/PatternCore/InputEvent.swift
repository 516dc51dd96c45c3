
/// What the input devices said, already in the lock screen's terms.
public enum InputEvent: Sendable {
  /// A contact: touchscreen fingers, or an absolute pointer / mouse with the left
  /// button held, which acts as one finger in slot 0. Positions are view pixels.
  case touch(TouchEvent)
  /// Where the pointer is, in view pixels, for drawing a cursor (mice, tablets).
  case cursor(Point)
  /// A key that means something to the lock.
  case key(KeyAction)
  /// A device appeared (at start-up, or plugged in later).
  case deviceAdded(name: String)
  /// A device went away.
  case deviceRemoved(name: String)
}
