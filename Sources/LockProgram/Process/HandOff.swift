import SystemCalls

/// What happens after an unlock when a command is configured: patternlock replaces
/// itself with it (`execv`), so the unlocked session is that command's, with no
/// patternlock process left behind to attack.
package enum HandOff {
  /// Replaces the process with the command (an absolute path: the settings table
  /// refuses any other, as no PATH search is done on purpose).
  ///
  /// - Returns: only when it failed: why.
  package static func exec(_ command: [String]) -> Errno {
    CurrentProcess.execute(command)
  }
}
