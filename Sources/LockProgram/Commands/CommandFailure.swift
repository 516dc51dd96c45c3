import CommandKit
import FBDev
import Input
import KMS
import PatternCore
import SystemCalls
import Vault

/// Why a command stopped before its work was done. Commands throw it and leave
/// everything they own to their `deinit`s (the CRTC, the console, the descriptors);
/// only `main` prints the message and exits with the status.
package enum CommandFailure: CommandError {
  /// The command line or an input file is unusable (exit 2).
  case usage(UsageError)
  /// The state directory, the secret or the attempts said no (the status of `check`).
  case vault(VaultError)
  /// The same, already said on standard error when it happened (a replay's attempt
  /// that could not be recorded): only the status remains to be given.
  case vaultAlreadyReported(VaultError)
  /// No KMS display could be taken.
  case display(KMSError)
  /// The fbdev display could not be taken (exit 1).
  case framebuffer(FBDevError)
  /// The display back-end taken failed while showing the lock (its message).
  case displayFailed(message: String)
  /// The door's inputs could not be watched (exit 1).
  case door(DoorWatchError)
  /// No input could be opened, or it failed while reading.
  case input(InputError)
  /// The event loop's own descriptors or poll failed.
  case loop(LoopFailure)
  /// The hooks or the door strike cannot be used as configured.
  case actions(ActionsError)
  /// The kiosk could not be shown, or the lock could not come back over it.
  case kiosk(KioskFailure)
  /// Unlocked, but the configured `exec` program could not be started.
  case handOff(program: String, errno: Errno)
  /// `status` run by a user who may not read the state directory.
  case stateNotReadable(path: String)

  package var message: String {
    switch self {
    case .usage(let error): return error.message
    case .vault(let error): return error.message
    case .vaultAlreadyReported: return ""
    case .display(let error): return error.message
    case .framebuffer(let error): return error.message
    case .displayFailed(let message): return message
    case .door(let error): return error.message
    case .input(let error): return error.message
    case .loop(let error): return error.message
    case .actions(let error): return error.message
    case .kiosk(let error): return error.message
    case .handOff(let program, let errno):
      return "unlocked, but cannot run \(program): \(errno.text) (check the exec setting)"
    case .stateNotReadable(let path):
      return "status: this user may not read the state directory \(path) (it is its owner's alone: run 'sudo patternlock status'; a hook gets the failures and the lockout in PATTERNLOCK_FAILURES, PATTERNLOCK_LOCKED_FOR_S and PATTERNLOCK_LOCKOUT instead)"
    }
  }

  /// The process's exit status.
  package var status: Int32 {
    switch self {
    // An unusable --dump directory is a bad command line, as the option's value is.
    case .usage: return ExitStatus.badInput.rawValue
    case .vault(let error), .vaultAlreadyReported(let error): return VaultCommandSupport.status(for: error).rawValue
    case .display, .framebuffer, .displayFailed, .door, .input, .loop, .handOff, .actions, .kiosk: return ExitStatus.failure.rawValue
    case .stateNotReadable: return UnlockExitStatus.notPermitted.rawValue
    }
  }
}
