import CommandKit
import Configuration
import LockProgram
import SystemCalls
import Vault

/// `patternlock-session-lock`, which `patternlock session-lock` runs: the Wayland
/// session lock as a program of its own, so that only it loads libwayland-client and
/// libxkbcommon.
@main
struct PatternlockSessionLock {
  static func main() {
    // The judge's socket and the compositor's may close at any time: an error for
    // the writer, never the end of the lock.
    CurrentProcess.ignoreBrokenPipes()
    // Judging in process (`--state-dir`), credential hours are the system zone's.
    LocalTime.useSystemZone(root: ConfigurationFiles.rootFromEnvironment())
    EventFeed.carryAuditEntries()
    CommandStart.runOnly(.sessionLock) { (options) throws(SessionLockFailure) -> ExitStatus in
      try SessionLockCommand.run(options)
    }
  }
}
