import CommandKit
import LockProgram
import Wayland

/// Why `session-lock` stopped: what any lock command stops for, or the Wayland
/// session lock could not be taken or kept (exit 1; the session is never unlocked
/// by it).
enum SessionLockFailure: CommandError {
  case command(CommandFailure)
  case wayland(WaylandError)

  var message: String {
    switch self {
    case .command(let failure): return failure.message
    case .wayland(let error): return "session-lock: " + error.message
    }
  }

  var status: Int32 {
    switch self {
    case .command(let failure): return failure.status
    case .wayland: return ExitStatus.failure.rawValue
    }
  }
}
