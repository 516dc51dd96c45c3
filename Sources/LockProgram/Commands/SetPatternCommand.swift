import CommandKit
import Configuration
import PatternCore
import SystemCalls
import Vault

/// `patternlock set-pattern [--state-dir DIR] [--grid N] [--min-dots N]
/// [--argon-passes N] [--argon-memory-mib N]`: reads `1-2-3-6-9` from standard input
/// (never argv, which every user can read) and stores its Argon2id hash.
///
/// For provisioning scripts; the on-screen `enroll` is the interactive way. Creates
/// the state directory (0700) when missing; an existing attempts file is kept.
package enum SetPatternCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory()
    let settings: Settings
    settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try VaultCommandSupport.settingsRefusingPatternArguments(arguments, for: .setPattern)
    }
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    let gridSize = settings.layout.gridSize
    let minimumDots = settings.minimumDots
    let passes = settings.argonPasses ?? HashCost.standard.passes
    let memoryMiB = settings.argonMemoryMiB ?? (HashCost.standard.memoryBytes >> 20)

    do throws(VaultError) {
      let cost = try HashCost(passes: passes, memoryBytes: memoryMiB << 20)
      let text = try PatternText.readStandardInput()
      let dots = try PatternText.parse(text, gridSize: gridSize)
      try PatternText.requireDrawable(dots, gridSize: gridSize)
      guard dots.count >= minimumDots else { throw .patternTooShort(dots: dots.count, minimum: minimumDots) }
      let directory = try StateDirectory(opening: directoryPath, creating: true)
      let stored = try PatternEnrolment.enrol(
        dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, settings: settings, in: directory, by: .setPattern)
      let bound = stored.recoveryKey == nil ? "" : ", bound to the TPM"
      Console.out("pattern set in \(directory.path) (\(gridSize)x\(gridSize) grid, at least \(minimumDots) dots\(bound))")
      Console.out(PatternEnrolment.strengthLine(stored.estimate, settings: settings))
      if let recoveryKey = stored.recoveryKey { PatternEnrolment.announce(recoveryKey: recoveryKey) }
      return .unlocked
    } catch {
      // The command's name goes with this one: the advice is about what it was given.
      if case .patternCommon = error { throw .usage(UsageError("set-pattern: " + error.message)) }
      throw .vault(error)
    }
  }
}
