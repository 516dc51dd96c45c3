/// What the seat said, in the compositor's terms: surface-local positions in logical
/// units as `wl_fixed_t` (24.8), times in milliseconds, surfaces by their tag.
public enum SeatEvent: Equatable, Sendable {
  case pointerEnter(surface: UInt32, x: Int32, y: Int32)
  case pointerLeave(surface: UInt32)
  case pointerMotion(timeMilliseconds: UInt32, x: Int32, y: Int32)
  case pointerButton(timeMilliseconds: UInt32, button: UInt32, pressed: Bool)
  case touchDown(surface: UInt32, id: Int32, timeMilliseconds: UInt32, x: Int32, y: Int32)
  case touchMotion(id: Int32, timeMilliseconds: UInt32, x: Int32, y: Int32)
  case touchUp(id: Int32, timeMilliseconds: UInt32)
  case touchFrame
  case touchCancel
  case key(keysym: UInt32, evdevCode: UInt32)
}
