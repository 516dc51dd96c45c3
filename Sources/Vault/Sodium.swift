import CSodium
import PatternCore

/// The libsodium calls Vault makes, each behind a Swift signature that cannot misuse
/// a length.
///
/// Why libsodium: it is in Debian and Raspberry Pi OS, its `crypto_pwhash_str` stores
/// algorithm, cost and random salt in one string (so a later change of cost still
/// verifies old hashes), and its BLAKE2b gives both the keyed fingerprints and the
/// file checksums. Rejected: libargon2 alone (no keyed hash, no secure wipe) and
/// OpenSSL (Argon2 only from 3.2, not in bookworm).
enum Sodium {
  /// `sodium_init`; safe to call more than once.
  ///
  /// - Throws: `VaultError.sodiumUnavailable`.
  static func start() throws(VaultError) {
    guard sodium_init() >= 0 else { throw .sodiumUnavailable }
  }

  /// `crypto_pwhash_str`: Argon2id with a random salt, as an ASCII string
  /// (`$argon2id$v=19$m=32768,t=2,p=1$salt$hash`).
  ///
  /// - Throws: `VaultError.hashingFailed` (out of memory).
  static func hash(_ secret: borrowing SecretBytes, cost: HashCost) throws(VaultError) -> String {
    try start()
    let size = Int(crypto_pwhash_strbytes())
    var out = [CChar](repeating: 0, count: size)
    let status = secret.withBytes { bytes in
      out.withUnsafeMutableBufferPointer { buffer in
        crypto_pwhash_str(
          buffer.baseAddress!, bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
          UInt64(bytes.count), UInt64(cost.passes), cost.memoryBytes)
      }
    }
    guard status == 0 else { throw .hashingFailed(memoryBytes: cost.memoryBytes) }
    var text = ""
    for c in out {
      if c == 0 { break }
      text.unicodeScalars.append(Unicode.Scalar(UInt8(bitPattern: c)))
    }
    return text
  }

  /// `crypto_generichash` (BLAKE2b) with a 32-byte key, 16 bytes out.
  static func fingerprint(_ secret: borrowing SecretBytes, key: [UInt8]) -> PatternFingerprint {
    precondition(key.count == Int(crypto_generichash_keybytes()), "fingerprint key must be 32 bytes")
    var out = [UInt8](repeating: 0, count: 16)
    secret.withBytes { bytes in
      key.withUnsafeBufferPointer { keyBuffer in
        _ = crypto_generichash(
          &out, 16, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count),
          keyBuffer.baseAddress, keyBuffer.count)
      }
    }
    return PatternFingerprint(bytes: out)!
  }

  /// `crypto_generichash` (BLAKE2b) without a key, 16 bytes out: the state files'
  /// checksum. Detects damage, not forgery (whoever can write the file can recompute it).
  static func checksum(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    bytes.withUnsafeBufferPointer { input in
      _ = crypto_generichash(&out, 16, input.baseAddress, UInt64(input.count), nil, 0)
    }
    return out
  }

  /// `randombytes_buf`: `count` bytes from the kernel's random source.
  static func randomBytes(_ count: Int) throws(VaultError) -> [UInt8] {
    try start()
    var out = [UInt8](repeating: 0, count: count)
    out.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
    return out
  }

  /// `randombytes_buf` straight into wiped memory: the sealed secret, the recovery key.
  static func randomSecret(_ count: Int) throws(VaultError) -> SecretBytes {
    try start()
    var out = SecretBytes(capacity: count)
    out.fill { buffer -> Int in
      randombytes_buf(buffer.baseAddress!, count)
      return count
    }
    return out
  }

  /// `crypto_generichash` (BLAKE2b) of raw bytes, `length` bytes out, keyed when `key`
  /// is given: the TPM-sealed secret's check value and the recovery key's authValue.
  static func digest(_ bytes: UnsafeRawBufferPointer, length: Int, key: [UInt8] = []) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: length)
    key.withUnsafeBufferPointer { keyBuffer in
      _ = crypto_generichash(
        &out, length, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count),
        key.isEmpty ? nil : keyBuffer.baseAddress, key.count)
    }
    return out
  }

  /// `sodium_memcmp`: equal, in time that does not depend on where they differ.
  static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count, !a.isEmpty else { return false }
    return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
  }
}
