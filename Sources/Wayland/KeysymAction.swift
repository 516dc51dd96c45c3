import PatternCore

extension KeyAction {
  /// The action of an X keysym under the compositor's keymap and modifiers, the way the
  /// console's keys act (`init(keyCode:)`): the digits 1 to 9 of the top row or the
  /// keypad (with or without Num Lock), Backspace, Enter and Escape.
  public init?(keysym: UInt32) {
    switch keysym {
    case 0x31...0x39: self = .dot(Int(keysym - 0x30))  // XKB_KEY_1 ... XKB_KEY_9
    case 0xffb1...0xffb9: self = .dot(Int(keysym - 0xffb0))  // XKB_KEY_KP_1 ... KP_9
    // The keypad without Num Lock: End, Down, Next; Left, Begin, Right; Home, Up, Prior.
    case 0xff9c: self = .dot(1)
    case 0xff99: self = .dot(2)
    case 0xff9b: self = .dot(3)
    case 0xff96: self = .dot(4)
    case 0xff9d: self = .dot(5)
    case 0xff98: self = .dot(6)
    case 0xff95: self = .dot(7)
    case 0xff97: self = .dot(8)
    case 0xff9a: self = .dot(9)
    case 0xff08: self = .removeLast  // BackSpace
    case 0xff0d, 0xff8d: self = .submit  // Return, KP_Enter
    case 0xff1b: self = .clear  // Escape
    default: return nil
    }
  }

  /// A key pressed on the compositor's keyboard: its keysym first (so digits typed
  /// with Shift on an AZERTY keyboard count), else the key's place (evdev code) as on
  /// the console, so the top row's digit keys act whatever the layout prints on them.
  public init?(keysym: UInt32, evdevCode: UInt32) {
    if let action = KeyAction(keysym: keysym) {
      self = action
    } else if let action = KeyAction(keyCode: evdevCode) {
      self = action
    } else {
      return nil
    }
  }
}
