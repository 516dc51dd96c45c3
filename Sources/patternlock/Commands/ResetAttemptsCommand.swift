import CShim
import Configuration
import PatternCore
import Vault

/// `patternlock reset-attempts [--state-dir DIR]`: clears the failure counter and the
/// remembered wrong patterns, ending any lockout, also a permanent one or one caused
/// by a damaged attempts file. Root only: this is the administrator's way back in.
enum ResetAttemptsCommand {
  static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let settings: Settings
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .resetAttempts)
      try parsed.refuseOperands(.resetAttempts)
      settings = parsed.settings
    } catch {
      throw .usage(error)
    }
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    guard pl_getuid() == 0 else {
      Console.error("reset-attempts: only root may reset the attempt counter (run it as root, such as with sudo)")
      return .notPermitted
    }
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      try AttemptsFile.reset(in: directory)
    } catch {
      throw .vault(error)
    }
    Console.out("attempts reset in \(directoryPath)")
    return .unlocked
  }
}
