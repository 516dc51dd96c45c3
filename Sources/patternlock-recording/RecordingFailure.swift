import CommandKit
import Input
import LockProgram
import PNGImage
import Recording
import SystemCalls
import Vault

/// Why `replay` or `inject` stopped before its work was done: what the lock's commands
/// stop for (said and numbered as they say it), or a recording, a picture or a dump
/// directory that cannot be used.
enum RecordingFailure: CommandError {
  /// The command line or an input file is unusable (exit 2).
  case usage(UsageError)
  /// The state directory, the secret or the attempts said no (the status of `check`).
  case vault(VaultError)
  /// The same, already said on standard error when it happened (an attempt that could
  /// not be recorded): only the status remains to be given.
  case vaultAlreadyReported(VaultError)
  /// The uinput device could not be made or written.
  case input(InputError)
  /// A recording cannot be replayed.
  case recording(RecordingError)
  /// A picture could not be written.
  case picture(PNGError)
  /// `--dump`'s directory cannot be made.
  case dumpDirectory(path: String, errno: Errno)
  /// A replay would draw more pictures than it may.
  case tooManyPictures(limit: Int)

  /// The same failure as the lock's commands give it, where they have it.
  private var lockCommandFailure: CommandFailure? {
    switch self {
    case .usage(let error): return .usage(error)
    case .vault(let error): return .vault(error)
    case .vaultAlreadyReported(let error): return .vaultAlreadyReported(error)
    case .input(let error): return .input(error)
    case .recording, .picture, .dumpDirectory, .tooManyPictures: return nil
    }
  }

  var message: String {
    if let failure = lockCommandFailure { return failure.message }
    switch self {
    case .recording(let error): return error.message
    case .picture(let error): return error.message
    case .dumpDirectory(let path, let errno):
      return "replay: cannot create --dump directory \(path): \(errno.text) (choose a writable path)"
    case .tooManyPictures(let limit):
      return "replay: the recording would show more than \(limit) pictures (a long lockout countdown or hours between events?); nothing was written (cut the recording, or replay it without --dump and --contact-sheet)"
    case .usage, .vault, .vaultAlreadyReported, .input: return ""
    }
  }

  var status: Int32 {
    if let failure = lockCommandFailure { return failure.status }
    switch self {
    // An unusable --dump directory is a bad command line, as the option's value is.
    case .tooManyPictures, .dumpDirectory: return ExitStatus.badInput.rawValue
    case .recording(let error): return ReplayCommand.exitStatus(for: error).rawValue
    case .picture: return ExitStatus.failure.rawValue
    case .usage, .vault, .vaultAlreadyReported, .input: return ExitStatus.failure.rawValue
    }
  }
}
