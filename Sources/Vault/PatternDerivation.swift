import CSodium
import PatternCore

/// Argon2id's output for one entered pattern, made with the enrolled pattern's salt
/// and cost: the one expensive step of judging, which both the repeat rule and the
/// verdict use.
///
/// Why the fingerprint of a wrong pattern comes from here and not from the pattern
/// itself: a fingerprint keyed only by a key in the same directory let whoever copied
/// the directory recover the recent wrong patterns in seconds (389,112 cheap BLAKE2b
/// tries). Made from this output, a fingerprint can be tested against a guess only by
/// running Argon2id with the pattern's salt and cost, exactly what testing the guess
/// against the stored hash costs: it gives nothing away sooner than the hash does.
struct PatternDerivation: ~Copyable {
  private let output: SecretBytes
  /// False when Argon2id could not run (too little memory): such a derivation matches
  /// nothing and has no fingerprint, so the attempt counts as wrong.
  let succeeded: Bool

  /// Runs Argon2id over `secret` with `parameters`' salt and cost.
  init(_ secret: borrowing SecretBytes, parameters: Argon2idSetting) {
    var output = SecretBytes(capacity: parameters.outputLength)
    var status: Int32 = -1
    if (try? Sodium.start()) != nil {
      secret.withBytes { bytes in
      parameters.salt.withUnsafeBufferPointer { salt in
          output.fill { buffer -> Int in
            status = crypto_pwhash(
              buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(parameters.outputLength),
              bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), salt.baseAddress!,
              UInt64(parameters.passes), parameters.memoryKiB << 10, crypto_pwhash_alg_argon2id13())
            return status == 0 ? parameters.outputLength : 0
          }
        }
      }
    }
    self.output = output
    succeeded = status == 0
  }

  /// Whether this is the enrolled pattern's output (in constant time).
  func matches(_ tag: [UInt8]) -> Bool {
    guard succeeded, tag.count == output.count else { return false }
    return output.withBytes { bytes in
      tag.withUnsafeBufferPointer { sodium_memcmp(bytes.baseAddress!, $0.baseAddress!, tag.count) == 0 }
    }
  }

  /// Lends the output (the TPM index's authValue for a TPM-bound pattern); nil when
  /// Argon2id could not run.
  func withOutput<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R? {
    guard succeeded else { return nil }
    return try output.withBytes(body)
  }

  /// The 128-bit fingerprint the repeat rule keeps: BLAKE2b of the output, keyed with
  /// the pattern file's per-install key (so two devices' fingerprints never compare).
  func fingerprint(key: [UInt8]) -> PatternFingerprint? {
    succeeded ? Sodium.fingerprint(output, key: key) : nil
  }
}
