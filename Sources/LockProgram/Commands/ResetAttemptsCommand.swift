import CommandKit
import Configuration
import PatternCore
import SystemCalls
import TPM
import Vault

/// `patternlock reset-attempts [--state-dir DIR]`: clears the failure counter and the
/// remembered wrong patterns, ending any lockout, also a permanent one or one caused
/// by a damaged attempts file. Root only: this is the administrator's way back in.
package enum ResetAttemptsCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try CommandLineSettings.optionsOnly(arguments, for: .resetAttempts)
    }
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    guard CurrentProcess.realUser == .root else {
      Console.error("reset-attempts: only root may reset the attempt counter (run it as root, such as with sudo)")
      return .notPermitted
    }
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      let tpmReset = try resetTPMCount(of: directory, settings: settings)
      try AttemptsFile.reset(in: directory, reason: tpmReset ? "tpm-count-lifted" : nil)
      if tpmReset { Console.out("the TPM's count of wrong patterns is reset") }
    } catch {
      throw .vault(error)
    }
    Console.out("attempts reset in \(directoryPath)")
    return .unlocked
  }

  /// For a TPM-bound pattern, lifts the TPM's own count with the recovery key read from
  /// standard input (root alone cannot: the key is not on the device). Returns false
  /// for a hashed pattern, whose count is only the attempts file.
  ///
  /// - Throws: `VaultError.recoveryKeyMissing`, `.recoveryKeyMalformed`,
  ///   `.recoveryKeyWrong`, `.tpm`: nothing is reset then.
  private static func resetTPMCount(of directory: borrowing StateDirectory, settings: Settings) throws(VaultError) -> Bool {
    guard let enrolment = (try? EnrolledPattern.load(from: directory))?.tpmEnrolment else { return false }
    let typed = try PatternText.readStandardInput()
    guard typed.count > 0 else { throw .recoveryKeyMissing }
    guard let key = RecoveryKey.parse(typed) else { throw .recoveryKeyMalformed }
    let tpm: TrustedPlatformModule
    tpm = try lifting(VaultError.tpm) { () throws(TPMProblem) in try TrustedPlatformModule(tcti: settings.tpmTCTI) }
    try enrolment.recover(with: key, on: tpm, limit: settings.throttle.permanentAfter)
    return true
  }
}
