import CTPMShim

/// What the state directory keeps of a TPM enrolment: the Names of the storage key and
/// of the PIN Fail index (so a different or cleared TPM is recognised), the index's
/// handle, and the sealed secret and recovery object as the TPM wrapped them (only
/// that TPM's storage key can load them). None of it can test a guess without the TPM.
public struct TPMBinding: Equatable, Sendable {
  public var storageKeyName: [UInt8]
  public var index: UInt32
  public var indexName: [UInt8]
  public var sealedPublic: [UInt8]
  public var sealedPrivate: [UInt8]
  public var recoveryPublic: [UInt8]
  public var recoveryPrivate: [UInt8]

  public init(
    storageKeyName: [UInt8], index: UInt32, indexName: [UInt8], sealedPublic: [UInt8], sealedPrivate: [UInt8],
    recoveryPublic: [UInt8], recoveryPrivate: [UInt8]
  ) {
    self.storageKeyName = storageKeyName
    self.index = index
    self.indexName = indexName
    self.sealedPublic = sealedPublic
    self.sealedPrivate = sealedPrivate
    self.recoveryPublic = recoveryPublic
    self.recoveryPrivate = recoveryPrivate
  }

  /// Whether every field fits what the TPM gives (Names of at most 68 bytes, blobs of
  /// at most 1024, an index in patternlock's range): a state file that claims more
  /// was not written by an enrolment.
  public var isWellFormed: Bool {
    let nameLimit = Int(PL_TPM_NAME_MAXIMUM)
    let blobLimit = Int(PL_TPM_BLOB_MAXIMUM)
    let blobs = [sealedPublic, sealedPrivate, recoveryPublic, recoveryPrivate]
    return !storageKeyName.isEmpty && storageKeyName.count <= nameLimit && !indexName.isEmpty
      && indexName.count <= nameLimit && blobs.allSatisfy { !$0.isEmpty && $0.count <= blobLimit }
      && index >= PL_TPM_INDEX_FIRST && index < PL_TPM_INDEX_FIRST + PL_TPM_INDEX_COUNT
  }

  init(_ raw: pl_tpm_binding) {
    var copy = raw
    storageKeyName = TPMBinding.bytes(of: &copy.storage_key_name, count: raw.storage_key_name_size)
    index = raw.index
    indexName = TPMBinding.bytes(of: &copy.index_name, count: raw.index_name_size)
    sealedPublic = TPMBinding.bytes(of: &copy.sealed_public, count: raw.sealed_public_size)
    sealedPrivate = TPMBinding.bytes(of: &copy.sealed_private, count: raw.sealed_private_size)
    recoveryPublic = TPMBinding.bytes(of: &copy.recovery_public, count: raw.recovery_public_size)
    recoveryPrivate = TPMBinding.bytes(of: &copy.recovery_private, count: raw.recovery_private_size)
  }

  /// The C structure (the caller has checked `isWellFormed`).
  var raw: pl_tpm_binding {
    var raw = pl_tpm_binding()
    raw.storage_key_name_size = TPMBinding.copy(storageKeyName, into: &raw.storage_key_name)
    raw.index = index
    raw.index_name_size = TPMBinding.copy(indexName, into: &raw.index_name)
    raw.sealed_public_size = TPMBinding.copy(sealedPublic, into: &raw.sealed_public)
    raw.sealed_private_size = TPMBinding.copy(sealedPrivate, into: &raw.sealed_private)
    raw.recovery_public_size = TPMBinding.copy(recoveryPublic, into: &raw.recovery_public)
    raw.recovery_private_size = TPMBinding.copy(recoveryPrivate, into: &raw.recovery_private)
    return raw
  }

  private static func bytes<T>(of field: inout T, count: Int) -> [UInt8] {
    withUnsafeBytes(of: &field) { Array($0.prefix(count)) }
  }

  private static func copy<T>(_ bytes: [UInt8], into field: inout T) -> Int {
    withUnsafeMutableBytes(of: &field) { buffer in
      let count = min(bytes.count, buffer.count)
      for i in 0..<count { buffer[i] = bytes[i] }
      return count
    }
  }
}
