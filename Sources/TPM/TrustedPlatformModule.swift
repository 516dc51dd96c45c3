import CTPMShim

/// One open connection to a TPM 2.0 (tpm2-tss ESAPI over a TCTI), holding the storage
/// key that every session is salted to. Each call is one command sequence of
/// CTPMShim.c; secrets go in and out as 32-byte buffers the caller owns and wipes.
public final class TrustedPlatformModule {
  /// The TCTI of a TPM on the board (the kernel's resource manager).
  public static let defaultTCTI = "device:/dev/tpmrm0"
  /// The size of the pattern's authValue, the recovery object's and the sealed secret.
  public static let secretBytes = 32

  public let tcti: String
  private let handle: OpaquePointer

  /// Opens the TPM and creates its storage key.
  ///
  /// - Throws: `TPMProblem.unreachable`, `.failed`, or `.libraryMissing` when tpm2-tss
  ///   cannot be loaded.
  public init(tcti: String) throws(TPMProblem) {
    var status = pl_tpm_status()
    guard let opened = tcti.withCString({ pl_tpm_open($0, &status) }) else { throw TPMProblem(status, tcti: tcti) }
    self.tcti = tcti
    handle = opened
  }

  deinit { pl_tpm_close(handle) }

  /// Enrols an authValue (the pattern's Argon2id output), a recovery key and the secret
  /// to seal, with `limit` wrong patterns before the TPM refuses.
  public func enrol(
    auth: UnsafeRawBufferPointer, recoveryKey: UnsafeRawBufferPointer, secret: UnsafeRawBufferPointer, limit: Int
  ) throws(TPMProblem) -> TPMBinding {
    precondition(auth.count == Self.secretBytes && recoveryKey.count == Self.secretBytes && secret.count == Self.secretBytes)
    var raw = pl_tpm_binding()
    let status = pl_tpm_enrol(
      handle, auth.baseAddress!.assumingMemoryBound(to: UInt8.self),
      recoveryKey.baseAddress!.assumingMemoryBound(to: UInt8.self), secret.baseAddress!.assumingMemoryBound(to: UInt8.self),
      UInt32(limit), &raw)
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
    return TPMBinding(raw)
  }

  /// The index's count as the TPM keeps it.
  public struct Count: Equatable, Sendable {
    public let failures: Int
    public let limit: Int
    public var triesLeft: Int { max(0, limit - failures) }
  }

  /// Checks that this TPM holds `binding` and reads its count (without the pattern).
  public func check(_ binding: TPMBinding) throws(TPMProblem) -> Count {
    guard binding.isWellFormed else { throw .notEnrolledHere(step: "the state's TPM fields") }
    var raw = binding.raw
    var failures: UInt32 = 0
    var limit: UInt32 = 0
    let status = pl_tpm_check(handle, &raw, &failures, &limit)
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
    return Count(failures: Int(failures), limit: Int(limit))
  }

  /// Asks the TPM to judge `auth`; on success writes the unsealed secret to `secret`.
  ///
  /// - Throws: `TPMProblem.wrong` (counted by the TPM), `.lockedOut`, or why there was
  ///   no verdict.
  public func unseal(_ binding: TPMBinding, auth: UnsafeRawBufferPointer, into secret: UnsafeMutableRawBufferPointer)
    throws(TPMProblem)
  {
    precondition(auth.count == Self.secretBytes && secret.count >= Self.secretBytes)
    guard binding.isWellFormed else { throw .notEnrolledHere(step: "the state's TPM fields") }
    var raw = binding.raw
    let status = pl_tpm_unseal(
      handle, &raw, auth.baseAddress!.assumingMemoryBound(to: UInt8.self),
      secret.baseAddress!.assumingMemoryBound(to: UInt8.self))
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
  }

  /// Sets the index's count back to 0 (with `limit`) using the recovery key.
  ///
  /// - Throws: `TPMProblem.wrong` when the key is not the enrolment's.
  public func recover(_ binding: TPMBinding, recoveryKey: UnsafeRawBufferPointer, limit: Int) throws(TPMProblem) {
    precondition(recoveryKey.count == Self.secretBytes)
    guard binding.isWellFormed else { throw .notEnrolledHere(step: "the state's TPM fields") }
    var raw = binding.raw
    let status = pl_tpm_recover(handle, &raw, recoveryKey.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(limit))
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
  }

  /// What the TPM says of its maker.
  public func vendor() throws(TPMProblem) -> TPMVendor {
    var strings = pl_tpm_vendor_strings()
    let status = pl_tpm_vendor(handle, &strings)
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
    let manufacturer = withUnsafeBytes(of: &strings.manufacturer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let vendor = withUnsafeBytes(of: &strings.vendor) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return TPMVendor(manufacturer: manufacturer, vendorString: vendor)
  }

  /// The TPM's dictionary-attack protection as it stands.
  public func dictionaryAttack() throws(TPMProblem) -> DictionaryAttackState {
    var lockout = pl_tpm_lockout()
    let status = pl_tpm_dictionary_attack(handle, &lockout)
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
    return DictionaryAttackState(
      failures: Int(lockout.failures), maximum: Int(lockout.maximum), intervalSeconds: Int(lockout.interval_seconds),
      recoverySeconds: Int(lockout.recovery_seconds), isLockedOut: lockout.in_lockout != 0)
  }

  /// Undefines every index of patternlock's range but `keep` (nil: all).
  public func forgetIndexes(keeping keep: UInt32?) throws(TPMProblem) {
    let status = pl_tpm_forget_others(handle, keep ?? 0)
    guard status.code == PL_TPM_OK else { throw TPMProblem(status, tcti: tcti) }
  }
}
