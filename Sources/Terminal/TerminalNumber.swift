// Terminal: the Linux virtual terminals (VTs) and their console, as typed calls over
// CShim's KD and VT ioctls: which VT a descriptor is, which one is active, switching
// between them (asked for, waited for, and answered while a process holds its VT),
// and the console's display and keyboard modes. The lock keeps its VT's text and
// keys out of the way with these (`ConsoleMode`) and hands the screen to a kiosk on
// another VT and takes it back. Errors are SystemCalls' `Errno`, retried on EINTR
// there; what a failure means for the lock is the executable's to say.
import CShim
import SystemCalls

/// A virtual terminal's number: tty1 is 1, up to the kernel's 63 (tty0, "the active
/// one", is no number of its own).
public struct TerminalNumber: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32

  /// nil outside 1 to 63.
  public init?(rawValue: Int32) {
    guard (1...63).contains(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// The VT `descriptor` is open on (`pl_vt_number`: a character device of the tty
  /// major with a VT's minor), or nil when it is none (a serial port, a pipe, /dev/tty0).
  public init?(of descriptor: borrowing FileDescriptor) {
    self.init(rawValue: pl_vt_number(descriptor.rawValue))
  }

  /// The VT on standard input (a unit's `TTYPath=`), or nil when it is none.
  public static func onStandardInput() -> TerminalNumber? {
    TerminalNumber(of: FileDescriptor.standardInput)
  }

  /// Its device, such as `/dev/tty7`.
  public var path: String { "/dev/tty\(rawValue)" }
}
