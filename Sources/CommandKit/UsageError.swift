import Configuration

/// A command line that cannot be used: the one line that says why; `main` reports it
/// and exits with status 2 (`ExitStatus.badInput`).
package struct UsageError: Error {
  package let message: String

  package init(_ message: String) { self.message = message }

  package init(_ error: ConfigurationError) { message = error.message }
}
