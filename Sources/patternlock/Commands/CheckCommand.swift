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
enum CheckCommand {
  static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let settings: Settings
    do throws(UsageError) {
      settings = try VaultCommandSupport.settingsRefusingPatternArguments(arguments, for: .check)
    } catch {
      throw .usage(error)
    }
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    VaultCommandSupport.protectSecretsInMemory()
    let actions = try RunCommand.makeActions(settings)
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      var session = try UnlockSession(
        store: DirectoryAttemptStore(directory), table: settings.throttle, startingAt: VaultCommandSupport.now(),
        tcti: settings.tpmTCTI, patternGuard: PatternGuard(blocklistSize: settings.blocklistSize))
      if let problem = session.attemptsDamage { VaultCommandSupport.reportDamage(problem, path: session.attemptsPath) }
      var dots = try PatternText.parse(try PatternText.readStandardInput(), gridSize: session.enrolled.gridSize)
      let decision = try session.attempt(dots, at: VaultCommandSupport.now())
      dots.removeAll()
      if let failure = session.clearingFailure {
        Console.error(failure.message + "; the unlock stands, and the failure counted before it stays counted")
      }
      Console.out(line(for: decision, credential: session.unlockedCredential))
      actions.after(decision, failures: session.policy.record.failures, credential: session.unlockedCredential)
      return VaultCommandSupport.status(for: decision)
    } catch {
      throw .vault(error)
    }
  }

  /// The result line, naming the credential after an unlock (`"credential":"NAME"`,
  /// never its role: a duress unlock reads as any other to whoever sees the line).
  static func line(for decision: UnlockDecision, credential: JudgedCredential?) -> String {
    let line = decision.jsonLine
    guard let credential else { return line }
    return String(line.dropLast()) + ",\"credential\":\"\(AuditEntry.escaped(credential.name))\"}"
  }
}
