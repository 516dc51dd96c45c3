import CommandKit
import Configuration
import LockEvents
import PatternChoice
import PatternCore
import SystemCalls
import Vault

/// `patternlock credential add NAME [--role ROLE] [--expires TIME] [--hours HOURS]`
/// (the pattern on standard input, never argv), `credential list` (one JSON line per
/// credential, owner first; never a secret) and `credential remove NAME`.
///
/// The owner's pattern (set-pattern, enroll) is the credential `owner`, role admin,
/// and is changed only as before; the others live in the `credentials` file, judged
/// with the owner's salt and cost (`CredentialFile`), so an owner must be set first.
package enum CredentialCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let parsed: CommandLineSettings
    parsed = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try CommandLineSettings(reading: arguments, for: .credential)
    }
    let settings = parsed.settings
    let operands = parsed.operands
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    let action = operands.first ?? ""
    let named = operands.count == 2 && (action == "add" || action == "remove")
    guard named || (operands == ["list"]) else {
      throw .usage(UsageError("credential: say add NAME, list or remove NAME (the pattern of add comes on standard input: echo 1-2-3-6-9 | patternlock credential add NAME)"))
    }
    if action != "add", settings.credentialRole != nil || settings.credentialExpires != nil || settings.credentialHours != nil {
      throw .usage(UsageError("credential \(action): --role, --expires and --hours belong to 'credential add'"))
    }
    if action == "remove", operands[1] == AuditEntry.owner {
      throw .usage(UsageError("credential remove: owner is the pattern set with set-pattern; it cannot be removed (set another with set-pattern)"))
    }
    let request = action == "add" ? try addRequest(name: operands[1], settings: settings) : nil
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      switch action {
      case "list":
        // The owner is listed only when there is one to list.
        _ = try EnrolledPattern.load(from: directory)
        Console.out(ownerLine)
        for credential in try CredentialFile.load(from: directory).credentials { Console.out(credential.jsonLine) }
      case "remove":
        let name = operands[1]
        try CredentialFile.remove(name: name, in: directory)
        Console.out("credential \(name) removed from \(directory.path)")
      default:
        guard let request else { return .badInput }
        VaultCommandSupport.protectSecretsInMemory()
        let owner = try EnrolledPattern.load(from: directory)
        var dots = try PatternText.parse(try PatternText.readStandardInput(), gridSize: owner.gridSize)
        try PatternText.requireDrawable(dots, gridSize: owner.gridSize)
        let patternGuard = PatternGuard(blocklistSize: settings.blocklistSize)
        try patternGuard.check(dots, gridSize: owner.gridSize, minimumDots: owner.minimumDots)
        let estimate = GuessEstimate(dots, model: ChoiceModel(gridSize: owner.gridSize, minimumDots: owner.minimumDots))
        try CredentialFile.add(
          name: request.name, role: request.role, expires: request.expires, hours: request.hours, dots: dots, in: directory,
          guardedBy: patternGuard, guesses: estimate.bucket)
        dots.removeAll()
        Console.out("credential \(request.name) added in \(directory.path) (role \(request.role.rawValue))")
        Console.out(PatternEnrolment.strengthLine(estimate, settings: settings))
      }
      return .unlocked
    } catch {
      // The command's name goes with this one: the advice is about what it was given.
      if case .patternCommon = error { throw .usage(UsageError("credential add: " + error.message)) }
      throw .vault(error)
    }
  }

  /// `list`'s line for the owner's pattern.
  package static let ownerLine = "{\"name\":\"owner\",\"role\":\"admin\",\"expires\":null,\"hours\":null}"

  private struct AddRequest {
    let name: String
    let role: CredentialRole
    let expires: String?
    let hours: CredentialHours?
  }

  /// The name and options of `add`, each checked.
  private static func addRequest(name: String, settings: Settings) throws(CommandFailure) -> AddRequest {
    guard Credential.isValidName(name) else {
      throw .usage(UsageError("credential add: '\(clip(name))' is not a credential name: \(Credential.acceptedName)"))
    }
    guard name != AuditEntry.owner else {
      throw .usage(UsageError("credential add: owner is the pattern set with set-pattern (choose another name)"))
    }
    var role = CredentialRole.user
    if let text = settings.credentialRole {
      guard let parsed = CredentialRole(rawValue: text) else {
        throw .usage(UsageError("credential add: --role '\(clip(text))' is not \(CredentialRole.names)"))
      }
      role = parsed
    }
    var expires: String?
    if let text = settings.credentialExpires {
      guard text.utf8.count == 16, UTCTime.parse(text) != nil else {
        throw .usage(UsageError("credential add: --expires '\(clip(text))' is not a local time YYYY-MM-DDTHH:MM, such as 2027-01-31T18:00"))
      }
      expires = text
    }
    var hours: CredentialHours?
    if let text = settings.credentialHours {
      guard let parsed = CredentialHours(text) else {
        throw .usage(UsageError("credential add: --hours '\(clip(text))' is not \(CredentialHours.accepted)"))
      }
      hours = parsed
    }
    return AddRequest(name: name, role: role, expires: expires, hours: hours)
  }

  private static func clip(_ text: String) -> String {
    text.utf8.count <= 40 ? text : String(text.prefix(40)) + "..."
  }
}
