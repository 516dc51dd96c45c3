import CommandKit
import Configuration
import PatternChoice
import PatternCore
import SystemCalls
import TPM
import Vault

/// `patternlock disk enroll DEVICE` (the pattern on standard input's first line, the
/// volume's passphrase or recovery key on its second), `disk status DEVICE` and
/// `disk remove DEVICE`: a LUKS2 volume's key slot bound to the TPM with the pattern as
/// its PIN, through systemd-cryptenroll (`CryptEnroll`), so that `password-agent`
/// unlocks it at boot by drawing.
///
/// The pattern is never a passphrase slot (389,112 patterns fall to an offline search):
/// it is only ever the PIN of a TPM-sealed key, whose every wrong guess the TPM counts.
/// A passphrase or recovery key slot must exist before the pattern is bound, and stays:
/// it is the keyboard's way in when the TPM refuses.
package enum DiskCommand {
  /// The most standard input read: a pattern line and a passphrase line.
  static let largestInput = 4096

  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    let parsed = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try CommandLineSettings(reading: arguments, for: .disk)
    }
    let settings = parsed.settings
    let operands = parsed.operands
    guard operands.count == 2, ["enroll", "status", "remove"].contains(operands[0]) else {
      throw .usage(UsageError("disk: say enroll DEVICE, status DEVICE or remove DEVICE (enroll reads the pattern and the volume's passphrase or recovery key from standard input, one a line)"))
    }
    let (action, device) = (operands[0], operands[1])
    do throws(DiskError) {
      guard CurrentProcess.realUser == .root else { throw .notRoot }
      let tool = try CryptEnroll()
      switch action {
      case "status":
        let slots = try tool.slots(of: device)
        var line = JSONObjectWriter()
        line.add("device", string: device)
        line.add("slots", raw: slots.jsonArray)
        line.add("pattern", raw: slots.hasTPM ? "true" : "false")
        line.add("keyboard", raw: slots.hasKeyboardWayIn ? "true" : "false")
        // What bounds the guesses at the pattern: the TPM's own count.
        let tcti = settings.tpmTCTI
        do throws(TPMProblem) {
          line.add("tpm", raw: try TrustedPlatformModule(tcti: tcti).dictionaryAttack().json)
        } catch {
          line.add("tpm", raw: "null")
          Console.error("disk status: the TPM's count of wrong PINs cannot be read: " + error.message)
        }
        Console.out(line.json)
      case "remove":
        let slots = try tool.slots(of: device)
        guard slots.hasTPM else { throw .noTPMSlot(device: device) }
        guard slots.hasKeyboardWayIn else { throw .onlyTheTPMSlot(device: device) }
        try tool.wipeTPM(device)
        Console.out("disk \(device): the TPM slot is removed; the pattern no longer opens it")
      default:
        VaultCommandSupport.protectSecretsInMemory()
        let slots = try tool.slots(of: device)
        guard slots.hasKeyboardWayIn else { throw .noKeyboardWayIn(device: device) }
        let gridSize = settings.layout.gridSize
        let input = try readInput()
        let (patternLine, keyLine) = try lines(of: input)
        var dots: DotSequence
        do throws(VaultError) {
          dots = try checkedPattern(input.copying(patternLine), settings: settings)
        } catch {
          // Every refusal here is about what was given: the pattern.
          Console.error(error.message.hasPrefix("disk") ? error.message : "disk enroll: " + error.message)
          return .badInput
        }
        let pin = PatternText.canonical(dots, gridSize: gridSize)
        dots.removeAll()
        try tool.enroll(device, pin: pin, unlockKey: input.copying(keyLine), tpmDevice: settings.tpmTCTI)
        Console.out(
          "disk \(device): the pattern (\(gridSize)x\(gridSize) grid) is the TPM PIN of its new key slot; its passphrase or recovery key stays the keyboard's way in")
      }
      return .success
    } catch {
      Console.error(error.message)
      switch error {
      case .noUnlockKey, .notAListing, .noKeyboardWayIn, .noTPMSlot, .onlyTheTPMSlot, .unlockKeyRefused: return .badInput
      default: return .failure
      }
    }
  }

  /// The pattern on `line`, if enrolment takes it: drawable on the grid, long enough, and
  /// not one the guard refuses (the patterns people choose first).
  private static func checkedPattern(_ line: borrowing SecretBytes, settings: Settings) throws(VaultError) -> DotSequence {
    let gridSize = settings.layout.gridSize
    let dots = try PatternText.parse(line, gridSize: gridSize)
    try PatternText.requireDrawable(dots, gridSize: gridSize)
    guard dots.count >= settings.minimumDots else { throw .patternTooShort(dots: dots.count, minimum: settings.minimumDots) }
    try PatternGuard(blocklistSize: settings.blocklistSize).check(dots, gridSize: gridSize, minimumDots: settings.minimumDots)
    return dots
  }

  /// All of standard input (at most `largestInput` bytes).
  private static func readInput() throws(DiskError) -> SecretBytes {
    let read: SecretBytes?
    do throws(Errno) {
      read = try SecretBytes.readStandardInput(limit: largestInput)
    } catch {
      throw .cannotRun(reason: "cannot read standard input: " + error.text)
    }
    guard let all = read else { throw .noUnlockKey }
    return all
  }

  /// Where the input's two lines are: the pattern, and the volume's passphrase or
  /// recovery key (its newline, and a carriage return before it, are not part of it).
  private static func lines(of input: borrowing SecretBytes) throws(DiskError) -> (pattern: Range<Int>, key: Range<Int>) {
    var newlines: [Int] = []
    for i in 0..<input.count where input[i] == UInt8(ascii: "\n") { newlines.append(i) }
    guard let first = newlines.first else { throw .noUnlockKey }
    var end = newlines.count > 1 ? newlines[1] : input.count
    if end > first + 1 && input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    guard end > first + 1 else { throw .noUnlockKey }
    return (0..<first, first + 1..<end)
  }
}
