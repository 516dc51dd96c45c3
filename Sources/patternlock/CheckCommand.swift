import CShim
import Configuration
import PatternCore
import Vault

/// `patternlock check [--state-dir DIR]`: reads one pattern (`1-2-3-6-9`) from
/// standard input, judges it exactly as the lock screen would (throttle, repeat rule,
/// persistence before the answer) and prints the same JSON line as `replay
/// --state-dir`. The exit status says the result too (see `UnlockExitStatus`).
///
/// Each run is a fresh start: a lockout that is running restarts in full, as after a
/// reboot, so a script cannot wait one out by calling `check` again; an administrator
/// uses `reset-attempts`.
enum CheckCommand {
  static func run(_ arguments: inout Arguments) {
    let settings = ConfiguredSettings.load(&arguments)
    let directoryPath = VaultCommandSupport.onlyStateDirectory(&arguments, configured: settings.stateDirectory) { argument in
      guard argument.hasPrefix("-") else { VaultCommandSupport.refusePatternArgument(command: "check") }
      Console.fail("check: unknown option '\(argument)' (usage: patternlock check [--state-dir DIR] [--config FILE] < pattern)")
    }
    let directory = VaultCommandSupport.open(directoryPath, creating: false)
    do throws(VaultError) {
      var session = try UnlockSession(directory: directory, table: settings.throttle, startingAt: VaultCommandSupport.now())
      if let problem = session.attemptsDamage { VaultCommandSupport.reportDamage(problem, path: session.attemptsPath) }
      let text = try PatternText.readStandardInput()
      let dots = try PatternText.parse(text, gridSize: session.enrolled.gridSize)
      let decision = try session.attempt(dots, at: VaultCommandSupport.now())
      Console.out(decision.jsonLine(dots: dots))
      pl_exit(VaultCommandSupport.status(for: decision).rawValue)
    } catch {
      VaultCommandSupport.fail(error)
    }
  }
}
