/// Which device of a `libinput record` capture `replay --device` asks for.
public enum DeviceInRecording: Equatable, Sendable {
  /// Recording's rule: the first touchscreen, else tablet, that recorded events.
  case automatic
  /// The device at this place in the file, 1 for the first.
  case number(Int)
  /// The first device with this evdev name.
  case name(String)
}
