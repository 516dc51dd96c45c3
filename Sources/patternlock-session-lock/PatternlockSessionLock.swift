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
    ProcessStart.prepare()
    CommandStart.runOnly(.sessionLock) { (options) throws(SessionLockFailure) -> ExitStatus in
      try SessionLockCommand.run(options)
    }
  }
}
