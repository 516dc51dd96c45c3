import CommandKit

/// Why `patternlock mqtt` stopped: a setting it cannot use (exit 2), or something it
/// needs failed (exit 1); each case holds its whole message.
enum ReporterFailure: CommandError {
  case usage(UsageError)
  case stopped(String)

  var message: String {
    switch self {
    case .usage(let error): return error.message
    case .stopped(let message): return message
    }
  }

  var status: Int32 {
    switch self {
    case .usage: return ExitStatus.badInput.rawValue
    case .stopped: return ExitStatus.failure.rawValue
    }
  }
}
