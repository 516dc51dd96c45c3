import CShim

/// What the console draws on a VT (KDGETMODE, KDSETMODE).
public struct TerminalDisplayMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// KD_TEXT: the console's text and cursor.
  public static let text = TerminalDisplayMode(rawValue: Int32(PL_KD_TEXT))
  /// KD_GRAPHICS: nothing; the kernel leaves the screen to whoever draws on it.
  public static let graphics = TerminalDisplayMode(rawValue: Int32(PL_KD_GRAPHICS))
}

/// What a VT's keyboard delivers (KDGKBMODE, KDSKBMODE); any mode read can be set back.
public struct TerminalKeyboardMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// K_OFF: keys reach no program on the VT, and the console's own switches
  /// (Ctrl+Alt+Fn) do nothing.
  public static let off = TerminalKeyboardMode(rawValue: Int32(PL_K_OFF))
  /// K_UNICODE: keys reach the VT's program as UTF-8, the console's usual mode.
  public static let unicode = TerminalKeyboardMode(rawValue: Int32(PL_K_UNICODE))

  /// The mode to give back at exit: the one found, except K_OFF, which a lock stopped
  /// before it could put the keyboard back leaves behind (no one else resets the VT:
  /// the unit has no `TTYReset=`), and which would leave the console deaf.
  public var afterTheLock: TerminalKeyboardMode { self == .off ? .unicode : self }
}

/// Who decides a switch away from a VT (VT_SETMODE, VT_GETMODE).
public enum TerminalSwitching: Sendable {
  /// VT_AUTO: the kernel switches at once.
  case automatic
  /// VT_PROCESS: the kernel asks the holding process with SIGUSR2 first and switches
  /// only when it answers (`TerminalControl.answer`); a switch to the VT is signalled
  /// the same way.
  case process
}

/// An answer to the kernel's SIGUSR2 on a VT held in VT_PROCESS mode (VT_RELDISP).
public enum TerminalSwitchAnswer: Sendable {
  /// A pending switch away goes on.
  case allowRelease
  /// A pending switch away is refused.
  case refuseRelease
  /// A switch to this VT is acknowledged (VT_ACKACQ).
  case acknowledgeAcquire

  var rawValue: Int32 {
    switch self {
    case .allowRelease: return 1
    case .refuseRelease: return 0
    case .acknowledgeAcquire: return Int32(PL_VT_ACKACQ)
    }
  }
}
