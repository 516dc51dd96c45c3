import CommandKit
import Configuration
import LockEvents
import PatternCore
import SystemCalls
import Vault

/// `patternlock log [--state-dir DIR] [--since TIME] [--json]`: prints the audit log,
/// oldest first (`audit.log.1`, then `audit.log`): by default one line per entry (UTC
/// time, event, credential, failures, reason), with `--json` the lines as stored. An
/// `attempt` with no verdict after it was never verified: it stays counted as wrong.
/// A line that is not an entry (torn by a crash, or changed) is reported as such, and
/// the rest is still printed.
package enum LogCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    let settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try CommandLineSettings.optionsOnly(arguments, for: .log)
    }
    var since: Int64?
    if let text = settings.logSince {
      guard let seconds = UTCTime.parse(text) else {
        Console.error("log: --since '\(text)' is not a UTC time YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, such as 2026-12-01T08:00")
        return .badInput
      }
      since = seconds
    }
    let path = settings.stateDirectory ?? StateDirectory.defaultPath
    let lines: [AuditLog.Line]
    do throws(VaultError) {
      let directory = try StateDirectory(opening: path, creating: false)
      lines = try AuditLog.lines(in: directory)
    } catch {
      if case .systemCall(_, _, let errno) = error, errno == .permissionDenied { throw .stateNotReadable(path: path) }
      throw .vault(error)
    }
    var corrupt = 0
    for line in lines {
      switch line {
      case .entry(let entry):
        if let since, entry.wallSeconds < since { continue }
        Console.out(settings.logAsJSON ? entry.jsonLine : entry.humanLine)
      case .corrupt(let file, let number):
        corrupt += 1
        Console.error("log: \(file) line \(number) is not an entry (torn by a crash, or changed); skipped")
      }
    }
    return corrupt == 0 ? .success : .failure
  }
}
