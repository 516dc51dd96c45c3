import CommandKit
import Configuration
import PatternChoice
import PatternCore
import SystemCalls
import TPM
import Vault

/// Makes and stores a new pattern the way `[vault] tpm` asks: bound to the TPM (which
/// then counts wrong patterns itself, and whose recovery key is printed once) or hashed.
/// Shared by `set-pattern` and the enrolment screen.
package enum PatternEnrolment {
  /// The TPM to bind to, or nil for a hashed pattern.
  ///
  /// - Throws: `VaultError.tpmRequired` when `tpm = required` (or `auto` with the
  ///   TPM's device present) and the TPM does not work: a TPM that is there but failing
  ///   is never silently skipped.
  package static func chosenTPM(_ settings: Settings) throws(VaultError) -> TrustedPlatformModule? {
    switch settings.tpmUse {
    case .off:
      return nil
    case .auto:
      guard deviceIsPresent(settings.tpmTCTI) else { return nil }
    case .required:
      break
    }
    return try lifting(VaultError.tpmRequired) { () throws(TPMProblem) in
      try TrustedPlatformModule(tcti: settings.tpmTCTI)
    }
  }

  /// Whether a `device:` TCTI's device node exists; any other TCTI counts as present.
  package static func deviceIsPresent(_ tcti: String) -> Bool {
    guard tcti == "device" || tcti.hasPrefix("device:") else { return true }
    let path = tcti == "device" ? "/dev/tpmrm0" : String(tcti.dropFirst("device:".utf8.count))
    return (try? FileStatus(ofPath: path.isEmpty ? "/dev/tpmrm0" : path, followingSymlinks: true)) != nil
  }

  /// What an enrolment stored.
  package struct Stored {
    /// The recovery key's text when the pattern is bound to a TPM.
    package let recoveryKey: String?
    /// About how many guesses the new pattern takes (`strength:` lines, the audit log).
    package let estimate: GuessEstimate
  }

  /// Makes the pattern, stores it (logged as `pattern-set` by `command`, with its guess
  /// bucket), and clears the TPM of every earlier enrolment's index (after the store, so
  /// a crash in between leaves the old pattern working).
  ///
  /// - Throws: `VaultError.patternCommon` when `[vault] blocklist` refuses the pattern
  ///   (nothing is stored or bound), and what making and storing it throw.
  package static func enrol(
    _ dots: DotSequence, gridSize: Int, minimumDots: Int, cost: HashCost, settings: Settings,
    in directory: borrowing StateDirectory, by command: Command
  ) throws(VaultError) -> Stored {
    let patternGuard = PatternGuard(blocklistSize: settings.blocklistSize)
    // Before the TPM is asked or Argon2id runs; the constructors check it again.
    try patternGuard.check(dots, gridSize: gridSize, minimumDots: minimumDots)
    let estimate = GuessEstimate(dots, model: ChoiceModel(gridSize: gridSize, minimumDots: minimumDots))
    let others = try CredentialFile.load(from: directory)
    if !others.credentials.isEmpty {
      try replaceOwner(
        dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, besides: others, settings: settings, in: directory,
        by: command, guardedBy: patternGuard, guesses: estimate.bucket)
      return Stored(recoveryKey: nil, estimate: estimate)
    }
    let earlierTPM = (try? EnrolledPattern.load(from: directory))?.tpmEnrolment != nil
    guard let tpm = try chosenTPM(settings) else {
      let enrolled = try EnrolledPattern(
        dots: dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, guardedBy: patternGuard)
      try enrolled.save(to: directory, auditReason: command.name, guesses: estimate.bucket)
      if earlierTPM { forgetEarlierIndexes(settings, keeping: nil) }
      return Stored(recoveryKey: nil, estimate: estimate)
    }
    let (enrolled, recoveryKey) = try EnrolledPattern.bind(
      dots: dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, tpm: tpm,
      limit: settings.throttle.permanentAfter, guardedBy: patternGuard)
    do throws(VaultError) {
      try enrolled.save(to: directory, auditReason: command.name, guesses: estimate.bucket)
    } catch {
      _ = try? tpm.forgetIndexes(keeping: (try? EnrolledPattern.load(from: directory))?.tpmEnrolment?.binding.index)
      throw error
    }
    do throws(TPMProblem) {
      try tpm.forgetIndexes(keeping: enrolled.tpmEnrolment?.binding.index)
    } catch {
      Console.error("the earlier patterns' TPM indexes could not be removed (\(error.message)); they can never unlock this state")
    }
    return Stored(recoveryKey: recoveryKey, estimate: estimate)
  }

  /// The line `set-pattern` and `credential add` print: the estimate against the tries
  /// the throttle allows before only reset-attempts helps.
  package static func strengthLine(_ estimate: GuessEstimate, settings: Settings) -> String {
    "strength: " + estimate.sentence(allowedGuesses: settings.throttle.permanentAfter)
  }

  /// The owner's new pattern while other credentials exist: they are judged with the
  /// owner's salt, cost and grid, so the new pattern keeps all three and stays hashed.
  ///
  /// - Throws: `VaultError.otherCredentialsDependOnOwner` for another grid or a TPM that
  ///   would be bound, `.credentialPatternTaken`, and what storing throws.
  private static func replaceOwner(
    _ dots: DotSequence, gridSize: Int, minimumDots: Int, cost: HashCost, besides others: CredentialFile,
    settings: Settings, in directory: borrowing StateDirectory, by command: Command, guardedBy patternGuard: PatternGuard,
    guesses: String
  ) throws(VaultError) {
    let existing = try EnrolledPattern.load(from: directory)
    let count = others.credentials.count
    guard existing.tpmEnrolment == nil, existing.gridSize == gridSize, try chosenTPM(settings) == nil else {
      throw .otherCredentialsDependOnOwner(count: count, grid: existing.gridSize)
    }
    let replaced = try EnrolledPattern(
      dots: dots, minimumDots: minimumDots, keepingSaltOf: existing, besides: others, guardedBy: patternGuard)
    if let kept = replaced.argon2idCost, kept != cost {
      Console.error(
        "\(command.name): the \(count) other credential(s) are judged with the owner's Argon2id salt and cost, so the pattern keeps them (\(kept.passes) passes, \(kept.memoryBytes >> 20) MiB)")
    }
    try replaced.save(to: directory, auditReason: command.name, guesses: guesses)
  }

  /// Best effort, when a hashed pattern replaces a TPM-bound one.
  private static func forgetEarlierIndexes(_ settings: Settings, keeping keep: UInt32?) {
    guard let tpm = try? TrustedPlatformModule(tcti: settings.tpmTCTI) else { return }
    _ = try? tpm.forgetIndexes(keeping: keep)
  }

  /// The line `set-pattern` and the enrolment screen print, once, on standard output.
  package static func announce(recoveryKey: String) {
    Console.out("recovery key: \(recoveryKey)")
    Console.error("keep the recovery key away from this device: without it nothing lifts the TPM's count of wrong patterns")
  }
}
