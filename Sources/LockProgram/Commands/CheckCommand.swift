import CommandKit
import Configuration
import PatternCore
import SystemCalls
import Vault

/// `patternlock check [--state-dir DIR]`: reads one pattern (`1-2-3-6-9`) from
/// standard input, judges it exactly as the lock screen would (under the state lock,
/// the failure counted before the hash is verified, the throttle, the repeat rule)
/// and prints the result line, never the dots. The exit status says the result too
/// (see `UnlockExitStatus`).
///
/// Each run is a fresh start: a lockout that is still running restarts in full, as
/// after a reboot, so a script cannot wait one out by calling `check` again; one that
/// ended before `check` started is over. An administrator uses `reset-attempts`.
package enum CheckCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let settings: Settings
    settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try VaultCommandSupport.settingsRefusingPatternArguments(arguments, for: .check)
    }
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    VaultCommandSupport.protectSecretsInMemory()
    let actions = try LockStartKit.makeActions(settings)
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      var session = try UnlockSession(
        store: DirectoryAttemptStore(directory), table: settings.throttle, startingAt: VaultCommandSupport.now(),
        tcti: settings.tpmTCTI, patternGuard: PatternGuard(blocklistSize: settings.blocklistSize))
      session.reportDamage(to: Console.error)
      var dots = try PatternText.parse(try PatternText.readStandardInput(), gridSize: session.enrolled.gridSize)
      let judged = try session.judge(dots, at: VaultCommandSupport.now(), journal: Console.error)
      dots.removeAll()
      Console.out(judged.resultLine)
      actions.after(judged)
      return VaultCommandSupport.status(for: judged.decision)
    } catch {
      throw .vault(error)
    }
  }
}
