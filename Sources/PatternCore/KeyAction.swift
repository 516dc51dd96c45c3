/// What a key press means to the lock screen: the keyboard path for people who cannot
/// draw (accessibility) and for boards with a keypad.
public enum KeyAction: Hashable, Sendable {
  /// Add dot 1 to 9 (digit keys of the main row or the keypad).
  case dot(Int)
  /// Remove the last dot (Backspace).
  case removeLast
  /// Submit the pattern entered so far (Enter, keypad Enter).
  case submit
  /// Clear the pattern (Escape).
  case clear

  /// The action for a Linux key code (`linux/input-event-codes.h`), or nil for keys
  /// the lock ignores.
  ///
  /// The keypad's digits follow a telephone-reversed layout in code order
  /// (KP7 = 71, KP8, KP9, KP4 = 75, ..., KP1 = 79), so each is listed.
  public init?(keyCode: UInt32) {
    switch keyCode {
    case 2...10: self = .dot(Int(keyCode) - 1)  // KEY_1 ... KEY_9
    case 79: self = .dot(1)  // KEY_KP1
    case 80: self = .dot(2)
    case 81: self = .dot(3)
    case 75: self = .dot(4)  // KEY_KP4
    case 76: self = .dot(5)
    case 77: self = .dot(6)
    case 71: self = .dot(7)  // KEY_KP7
    case 72: self = .dot(8)
    case 73: self = .dot(9)
    case 14: self = .removeLast  // KEY_BACKSPACE
    case 28, 96: self = .submit  // KEY_ENTER, KEY_KPENTER
    case 1: self = .clear  // KEY_ESC
    default: return nil
    }
  }
}
