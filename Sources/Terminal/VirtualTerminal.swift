import CShim
import SystemCalls

/// An open VT, `/dev/ttyN`, that this value owns: closed in `deinit`.
public struct VirtualTerminal: ~Copyable {
  public let number: TerminalNumber
  private let file: FileDescriptor

  /// Opens VT `number` read-write, close-on-exec and without making it the
  /// controlling terminal (`pl_vt_open`), retrying `EINTR`.
  ///
  /// - Throws: open(2)'s `Errno`.
  public init(opening number: TerminalNumber) throws(Errno) {
    let fd = try retryingInterrupts { pl_vt_open(number.rawValue) }
    file = FileDescriptor(owning: fd)
    self.number = number
  }

  /// Its ioctls, valid while this value lives.
  public var control: TerminalControl { TerminalControl(lending: file.rawValue) }

  /// Closes it now rather than where this value's life ends.
  public consuming func close() {}

  /// Whether VT `number` is in graphics mode, and whether a process holds it in
  /// VT_PROCESS mode; both false when it cannot be opened or asked. Opened for the look
  /// and closed at once: a descriptor kept open on another program's VT would be hung
  /// up by that program's start (a unit's TTYVHangup) and answer nothing after.
  public static func look(at number: TerminalNumber) -> (graphics: Bool, held: Bool) {
    guard let terminal = try? VirtualTerminal(opening: number) else { return (false, false) }
    let graphics = (try? terminal.control.displayMode()) == .graphics
    let held = (try? terminal.control.isHeld()) ?? false
    return (graphics, held)
  }

  /// Sets what the console draws on VT `number`, opened for that alone (as `look`).
  ///
  /// - Throws: open(2)'s or KDSETMODE's `Errno`.
  public static func setDisplayMode(_ mode: TerminalDisplayMode, of number: TerminalNumber) throws(Errno) {
    let terminal = try VirtualTerminal(opening: number)
    try terminal.control.setDisplayMode(mode)
  }
}
