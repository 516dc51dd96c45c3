import CSodium

/// How expensive Argon2id makes each check of the pattern: passes over memory
/// (libsodium's `opslimit`) and the memory used (`memlimit`).
///
/// The default, 2 passes over 32 MiB, took 0.07 s on a 2020s x86-64 server core
/// (libsodium 1.0.18 with AVX2; 64 MiB and 3 passes took 0.17 s). libsodium has no NEON
/// Argon2 code, so a Raspberry Pi 4 (Cortex-A72, 1.5 GHz, LPDDR4) runs the portable
/// code, about 2-3x slower than the AVX2 code per clock, on a core 3-4x slower: an
/// estimated 0.4-0.6 s, "well under a second" after a finger lifts. 64 MiB and 3
/// passes would be an estimated 1-1.5 s there. The 32 MiB are allocated only while a
/// pattern is checked. Note what this buys: a 3x3 grid has only 389,112 patterns, so
/// the hash slows an offline search of a stolen file to hours, not years; the real
/// protection is the file's 0600 mode and the throttle.
public struct HashCost: Sendable, Equatable {
  /// Passes over the memory (`opslimit`).
  public let passes: Int
  /// Bytes of memory (`memlimit`).
  public let memoryBytes: Int

  /// 2 passes over 32 MiB (see the type's note).
  public static let standard = HashCost(checkedPasses: 2, memoryBytes: 32 << 20)

  /// A cost, checked against libsodium's limits (`crypto_pwhash_opslimit_min` etc.).
  ///
  /// - Throws: `VaultError.badHashCost` naming the limit that was passed.
  public init(passes: Int, memoryBytes: Int) throws(VaultError) {
    let minPasses = Int(crypto_pwhash_opslimit_min())
    let maxPasses = min(Int(crypto_pwhash_opslimit_max()), 100)
    let minMemory = Int(crypto_pwhash_memlimit_min())
    let maxMemory = min(Int(crypto_pwhash_memlimit_max()), 4096 << 20)
    guard passes >= minPasses && passes <= maxPasses else {
      throw .badHashCost(problem: "\(passes) passes is outside \(minPasses)...\(maxPasses)")
    }
    guard memoryBytes >= minMemory && memoryBytes <= maxMemory else {
      throw .badHashCost(problem: "\(memoryBytes) bytes of memory is outside \(minMemory)...\(maxMemory)")
    }
    self.init(checkedPasses: passes, memoryBytes: memoryBytes)
  }

  private init(checkedPasses: Int, memoryBytes: Int) {
    passes = checkedPasses
    self.memoryBytes = memoryBytes
  }
}
