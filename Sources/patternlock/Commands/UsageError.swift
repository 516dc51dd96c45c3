import Configuration

/// A command line that cannot be used: the one line that says why; `main` reports it
/// and exits with status 2 (`ExitStatus.badInput`).
struct UsageError: Error {
  let message: String

  init(_ message: String) { self.message = message }

  init(_ error: ConfigurationError) { message = error.message }
}
