import PatternCore
import SystemCalls

/// Why the session lock cannot be taken or kept. Every case leaves the session as the
/// compositor has it: a lock that was granted stays locked (the protocol's promise
/// when its client goes), one that was not never was.
public enum WaylandError: DescribedError, Equatable {
  /// No compositor to connect to ($WAYLAND_DISPLAY unset or its socket missing).
  case noDisplay(name: String, errno: Errno)
  /// The compositor does not offer a global the lock needs.
  case missingGlobal(interface: String, hint: String)
  /// The compositor refused the lock (another locker holds it) or ended it.
  case lockRefused
  /// The connection broke (the compositor ended or restarted, or a protocol error).
  case connectionLost(errno: Errno)
  /// The compositor announced no output to lock, or gave no size for the lock's.
  case noOutput
  /// The output the lock is drawn on went away.
  case lockOutputGone
  /// Shared memory for a buffer could not be made.
  case sharedMemory(bytes: Int, errno: Errno)
  /// More events came at once than the lock can hold; it cannot know what it missed.
  case eventsLost
  /// An output's new size or scale left no room for the lock (`message` says why).
  case cannotLayOut(message: String)

  public var message: String {
    switch self {
    case .noDisplay(let name, let errno):
      return "cannot connect to the Wayland display \(name) (\(errno.text)): run session-lock inside the desktop session, or set WAYLAND_DISPLAY and XDG_RUNTIME_DIR"
    case .missingGlobal(let interface, let hint):
      return "the compositor does not offer \(interface): \(hint)"
    case .lockRefused:
      return "the compositor refused the session lock or ended it (is another screen locker running?); the session was not unlocked"
    case .connectionLost(let errno):
      return "the connection to the compositor was lost (\(errno.text)); the session stays as the compositor keeps it"
    case .noOutput:
      return "the compositor has no output to show the lock on (is a display connected and on?)"
    case .lockOutputGone:
      return "the output the lock was drawn on went away; start session-lock again to lock the outputs that remain"
    case .sharedMemory(let bytes, let errno):
      return "cannot make \(bytes) bytes of shared memory for a frame (\(errno.text)); is /dev/shm or memory full?"
    case .eventsLost:
      return "the compositor sent more events at once than the lock can hold; start session-lock again"
    case .cannotLayOut(let message):
      return "an output changed its size or scale and the lock cannot be laid out for it: \(message)"
    }
  }
}
