import PatternCore
import TPM

/// A pattern bound to a TPM: what the pattern file keeps instead of a hash. Argon2id
/// still runs over the entered pattern (with this salt and cost), but its 32-byte output
/// is the TPM index's authValue, never written anywhere; only the TPM can say whether it
/// is right, and it counts each wrong one itself. A right one lets the TPM unseal a
/// random secret, which is checked against `secretCheck`: an answer from any other TPM
/// (or a fake one) cannot produce it, so a bare "success" never unlocks.
public struct TPMEnrolment: Equatable {
  let setting: Argon2idSetting
  public let binding: TPMBinding
  /// BLAKE2b-256 of the sealed secret (random, 256 bits: it tells nothing of the pattern).
  let secretCheck: [UInt8]

  /// Binds a new pattern: a fresh salt, the TPM enrolment, a fresh recovery key.
  ///
  /// - Throws: `VaultError.tpm` when the TPM refused, `.hashingFailed`.
  static func enrol(
    _ secret: borrowing SecretBytes, cost: HashCost, tpm: TrustedPlatformModule, limit: Int
  ) throws(VaultError) -> (TPMEnrolment, String) {
    let salt = try Sodium.randomBytes(16)
    let setting = Argon2idSetting(
      memoryKiB: cost.memoryBytes >> 10, passes: cost.passes, salt: salt, outputLength: TrustedPlatformModule.secretBytes)
    let derivation = PatternDerivation(secret, parameters: setting)
    let recoveryKey = try RecoveryKey.generate()
    let sealed = try Sodium.randomSecret(TrustedPlatformModule.secretBytes)
    let outcome: Result<TPMBinding, TPMProblem>? = derivation.withOutput { auth in
      recoveryKey.withAuthorisation { recovery in
        sealed.withBytes { secretBytes in
          Result { () throws(TPMProblem) in try tpm.enrol(auth: auth, recoveryKey: recovery, secret: secretBytes, limit: limit) }
        }
      }
    }
    guard let outcome else { throw .hashingFailed(memoryBytes: cost.memoryBytes) }
    switch outcome {
    case .failure(let problem): throw .tpm(problem)
    case .success(let binding):
      let check = sealed.withBytes { Sodium.digest($0, length: 32) }
      return (TPMEnrolment(setting: setting, binding: binding, secretCheck: check), recoveryKey.text)
    }
  }

  /// Checks before anything is counted that `tpm` holds this enrolment and will judge:
  /// not another TPM, not one in lockout.
  ///
  /// - Throws: `VaultError.tpm` (the attempt is then not judged).
  func prepare(_ tpm: TrustedPlatformModule) throws(VaultError) {
    let count: TrustedPlatformModule.Count
    count = try lifting(VaultError.tpm) { () throws(TPMProblem) in try tpm.check(binding) }
    if count.triesLeft == 0 { throw .tpm(.lockedOut) }
  }

  /// The TPM's verdict on a derivation: true when it unsealed the secret this enrolment
  /// sealed, false when it counted a wrong pattern.
  ///
  /// - Throws: `VaultError.tpm` when there was no verdict (unreachable, lockout, another
  ///   TPM, an unsealed secret that is not ours).
  func judge(_ derivation: borrowing PatternDerivation, on tpm: TrustedPlatformModule) throws(VaultError) -> Bool {
    var unsealed = SecretBytes(capacity: TrustedPlatformModule.secretBytes)
    let outcome: Result<Void, TPMProblem>? = derivation.withOutput { auth in
      var result: Result<Void, TPMProblem> = .success(())
      unsealed.fill { buffer -> Int in
        do throws(TPMProblem) {
          try tpm.unseal(binding, auth: auth, into: buffer)
          return TrustedPlatformModule.secretBytes
        } catch {
          result = .failure(error)
          return 0
        }
      }
      return result
    }
    // Argon2id did not run (no memory): nothing was asked, so nothing is judged right.
    guard let outcome else { return false }
    if case .failure(let problem) = outcome {
      if problem == .wrong { return false }
      throw .tpm(problem)
    }
    let check = unsealed.withBytes { Sodium.digest($0, length: 32) }
    guard Sodium.equalInConstantTime(check, secretCheck) else {
      throw .tpm(.notEnrolledHere(step: "the unsealed secret"))
    }
    return true
  }

  /// Lifts the TPM's count with the recovery key.
  ///
  /// - Throws: `VaultError.recoveryKeyWrong`, `.tpm`.
  public func recover(with key: borrowing RecoveryKey, on tpm: TrustedPlatformModule, limit: Int) throws(VaultError) {
    let outcome = key.withAuthorisation { auth in
      Result { () throws(TPMProblem) in try tpm.recover(binding, recoveryKey: auth, limit: limit) }
    }
    switch outcome {
    case .success: return
    case .failure(.wrong): throw .recoveryKeyWrong
    case .failure(let problem): throw .tpm(problem)
    }
  }

  /// The state file's lines after grid and min-dots.
  var lines: [String] {
    [
      "argon2id m=\(setting.memoryKiB),t=\(setting.passes),p=1 \(HexText.encode(bytes: setting.salt))",
      "tpm-storage-key \(HexText.encode(bytes: binding.storageKeyName))",
      "tpm-index \(HexText.encode(bytes: TPMEnrolment.bigEndian(binding.index)))",
      "tpm-index-name \(HexText.encode(bytes: binding.indexName))",
      "tpm-sealed \(HexText.encode(bytes: binding.sealedPublic)) \(HexText.encode(bytes: binding.sealedPrivate))",
      "tpm-recovery \(HexText.encode(bytes: binding.recoveryPublic)) \(HexText.encode(bytes: binding.recoveryPrivate))",
      "secret-check \(HexText.encode(bytes: secretCheck))",
    ]
  }

  /// Parses `lines`' form; nil when any field is not what an enrolment writes.
  static func parse(_ lines: ArraySlice<String>) -> TPMEnrolment? {
    guard lines.count == 7 else { return nil }
    let l = Array(lines)
    guard let argon = StateFileCodec.value(l[0], key: "argon2id"), let setting = parseSetting(argon),
      let storageKey = hex(l[1], "tpm-storage-key"), let indexBytes = hex(l[2], "tpm-index"), indexBytes.count == 4,
      let indexName = hex(l[3], "tpm-index-name"), let sealed = pair(l[4], "tpm-sealed"),
      let recovery = pair(l[5], "tpm-recovery"), let check = hex(l[6], "secret-check"), check.count == 32
    else { return nil }
    let index = indexBytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
    let binding = TPMBinding(
      storageKeyName: storageKey, index: index, indexName: indexName, sealedPublic: sealed.0, sealedPrivate: sealed.1,
      recoveryPublic: recovery.0, recoveryPrivate: recovery.1)
    guard binding.isWellFormed else { return nil }
    return TPMEnrolment(setting: setting, binding: binding, secretCheck: check)
  }

  private static func parseSetting(_ text: String) -> Argon2idSetting? {
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 2 else { return nil }
    let costs = fields[0].split(separator: ",", omittingEmptySubsequences: false)
    guard costs.count == 3, costs[2] == "p=1", costs[0].hasPrefix("m="), costs[1].hasPrefix("t="),
      let memory = StateFileCodec.number(costs[0].dropFirst(2)), let passes = StateFileCodec.number(costs[1].dropFirst(2)),
      memory >= 8 && memory <= 4 << 20, passes >= 1 && passes <= 100,
      let salt = HexText.decodeBytes(String(fields[1])), salt.count == 16, HexText.encode(bytes: salt) == String(fields[1])
    else { return nil }
    return Argon2idSetting(memoryKiB: Int(memory), passes: Int(passes), salt: salt, outputLength: TrustedPlatformModule.secretBytes)
  }

  private static func hex(_ line: String, _ key: String) -> [UInt8]? {
    guard let text = StateFileCodec.value(line, key: key), let bytes = HexText.decodeBytes(text), !bytes.isEmpty,
      HexText.encode(bytes: bytes) == text
    else { return nil }
    return bytes
  }

  private static func pair(_ line: String, _ key: String) -> ([UInt8], [UInt8])? {
    guard let text = StateFileCodec.value(line, key: key) else { return nil }
    let parts = text.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = HexText.decodeBytes(String(parts[0])), let b = HexText.decodeBytes(String(parts[1])),
      !a.isEmpty, !b.isEmpty, HexText.encode(bytes: a) == String(parts[0]), HexText.encode(bytes: b) == String(parts[1])
    else { return nil }
    return (a, b)
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}
