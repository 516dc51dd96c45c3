import LockEvents
import PatternCore
import SystemCalls
import TPM

/// The pattern file (`pattern` in the state directory): the Argon2id hash of the
/// canonical pattern, the grid it was set for, the minimum length, and the random key
/// that fingerprints of wrong patterns are made with (from their Argon2id output).
///
/// ```
/// patternlock-pattern 1
/// grid 3
/// min-dots 4
/// key <64 hex digits>
/// hash $argon2id$v=19$m=32768,t=2,p=1$<salt>$<hash>
/// checksum <32 hex digits>
/// ```
///
/// A pattern bound to a TPM (version 2) keeps no hash and no fingerprint key: after
/// `min-dots` come the Argon2id salt and cost and the TPM's fields (`TPMEnrolment`).
public struct EnrolledPattern: Equatable {
  /// The file's name in the state directory.
  public static let name = "pattern"
  static let kind = "patternlock-pattern"
  static let keyBytes = 32
  static let tpmVersion = 2

  /// How an entered pattern is judged.
  enum Protection: Equatable {
    /// Against the Argon2id tag of `parameters`, in software; fingerprints of wrong
    /// patterns are keyed with `fingerprintKey`.
    case hash(String, parameters: Argon2idString, fingerprintKey: [UInt8])
    /// By the TPM.
    case tpm(TPMEnrolment)
  }

  /// Dots per side of the grid the pattern was set on (3 to 7).
  public let gridSize: Int
  /// Patterns with fewer dots are too short (and never counted).
  public let minimumDots: Int
  let protection: Protection

  /// Nil when `hash` is not a string `crypto_pwhash_str` writes.
  init?(gridSize: Int, minimumDots: Int, fingerprintKey: [UInt8], hash: String) {
    guard let parameters = Argon2idString(hash) else { return nil }
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    protection = .hash(hash, parameters: parameters, fingerprintKey: fingerprintKey)
  }

  init(gridSize: Int, minimumDots: Int, tpm: TPMEnrolment) {
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    protection = .tpm(tpm)
  }

  /// Hashes a new pattern with a fresh salt and fingerprint key.
  ///
  /// - Throws: `VaultError.patternTooShort`, `.patternCommon` (what `patternGuard`
  ///   refuses), `.hashingFailed`, `.sodiumUnavailable`.
  public init(
    dots: DotSequence, gridSize: Int, minimumDots: Int, cost: HashCost, guardedBy patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    try EnrolledPattern.checkShape(dots, gridSize: gridSize, minimumDots: minimumDots, guardedBy: patternGuard)
    let secret = PatternText.canonical(dots, gridSize: gridSize)
    let hash = try Sodium.hash(secret, cost: cost)
    let key = try Sodium.randomBytes(EnrolledPattern.keyBytes)
    guard let made = EnrolledPattern(gridSize: gridSize, minimumDots: minimumDots, fingerprintKey: key, hash: hash) else {
      throw .hashingFailed(memoryBytes: cost.memoryBytes)
    }
    self = made
  }

  /// Binds a new pattern to `tpm`, which then counts wrong patterns itself and refuses
  /// after `limit`. The recovery key's text is returned to be shown once; it is kept
  /// nowhere.
  ///
  /// - Throws: `VaultError.patternTooShort`, `.patternCommon`, `.hashingFailed`, `.tpm`.
  public static func bind(
    dots: DotSequence, gridSize: Int, minimumDots: Int, cost: HashCost, tpm: TrustedPlatformModule, limit: Int,
    guardedBy patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) -> (pattern: EnrolledPattern, recoveryKey: String) {
    try checkShape(dots, gridSize: gridSize, minimumDots: minimumDots, guardedBy: patternGuard)
    let secret = PatternText.canonical(dots, gridSize: gridSize)
    let (enrolment, key) = try TPMEnrolment.enrol(secret, cost: cost, tpm: tpm, limit: limit)
    return (EnrolledPattern(gridSize: gridSize, minimumDots: minimumDots, tpm: enrolment), key)
  }

  /// Every new pattern passes here before anything is hashed: long enough, and not one
  /// the guard refuses.
  private static func checkShape(
    _ dots: DotSequence, gridSize: Int, minimumDots: Int, guardedBy patternGuard: PatternGuard
  ) throws(VaultError) {
    precondition(gridSize >= 3 && gridSize <= 7, "grid size out of range")
    precondition(minimumDots >= 1 && minimumDots <= gridSize * gridSize, "minimum dots out of range")
    guard dots.count >= minimumDots else { throw .patternTooShort(dots: dots.count, minimum: minimumDots) }
    try patternGuard.check(dots, gridSize: gridSize, minimumDots: minimumDots)
  }

  /// The TPM enrolment, when the pattern is bound to one.
  public var tpmEnrolment: TPMEnrolment? {
    if case .tpm(let enrolment) = protection { return enrolment }
    return nil
  }

  /// A hashed pattern's `crypto_pwhash_str` output (empty when TPM-bound).
  var hash: String {
    if case .hash(let hash, _, _) = protection { return hash }
    return ""
  }

  /// A hashed pattern's Argon2id cost; nil when TPM-bound.
  public var argon2idCost: HashCost? {
    guard case .hash(_, let parameters, _) = protection else { return nil }
    return try? HashCost(passes: parameters.passes, memoryBytes: parameters.memoryKiB << 10)
  }

  /// The Argon2id memory a derivation takes, for messages.
  var memoryBytes: Int {
    switch protection {
    case .hash(_, let parameters, _): return parameters.memoryKiB << 10
    case .tpm(let enrolment): return enrolment.setting.memoryKiB << 10
    }
  }

  /// A hashed pattern's fingerprint key (empty when TPM-bound).
  var fingerprintKey: [UInt8] {
    if case .hash(_, _, let key) = protection { return key }
    return []
  }

  /// Runs Argon2id over `dots` with the pattern's salt and cost (its time and memory).
  func derive(_ dots: DotSequence) -> PatternDerivation {
    let setting: Argon2idSetting
    switch protection {
    case .hash(_, let parameters, _): setting = parameters.setting
    case .tpm(let enrolment): setting = enrolment.setting
    }
    return PatternDerivation(PatternText.canonical(dots, gridSize: gridSize), parameters: setting)
  }

  /// Whether a derivation is the pattern's own, for a hashed pattern; a TPM-bound one
  /// is judged only by its TPM (`TPMEnrolment.judge`), so this is false for it.
  func matches(_ derivation: borrowing PatternDerivation) -> Bool {
    guard case .hash(_, let parameters, _) = protection else { return false }
    return derivation.matches(parameters.tag)
  }

  /// Whether `dots` is the pattern (Argon2id; takes the hash's cost in time and memory).
  /// Always false for a TPM-bound pattern: only `UnlockSession` asks its TPM.
  public func matches(_ dots: DotSequence) -> Bool {
    matches(derive(dots))
  }

  /// The fingerprint of an entered pattern, for recognising a repeated wrong one:
  /// made from its Argon2id output, so it costs a guesser what the hash does.
  /// Nil when Argon2id could not run, and for a TPM-bound pattern: there the output is
  /// the TPM's authValue, and nothing on disk may be testable against a guess.
  func fingerprint(of derivation: borrowing PatternDerivation) -> PatternFingerprint? {
    guard case .hash(_, _, let key) = protection else { return nil }
    return derivation.fingerprint(key: key)
  }

  /// `fingerprint(of:)` for dots (runs Argon2id).
  public func fingerprint(of dots: DotSequence) -> PatternFingerprint? {
    fingerprint(of: derive(dots))
  }

  /// The file's bytes.
  public func encode() -> [UInt8] {
    let shape = ["grid \(gridSize)", "min-dots \(minimumDots)"]
    switch protection {
    case .hash(let hash, _, let key):
      return StateFileCodec.seal(
        kind: EnrolledPattern.kind, lines: shape + ["key \(HexText.encode(bytes: key))", "hash \(hash)"])
    case .tpm(let enrolment):
      return StateFileCodec.seal(kind: EnrolledPattern.kind, version: EnrolledPattern.tpmVersion, lines: shape + enrolment.lines)
    }
  }

  /// Parses the file's bytes.
  ///
  /// - Throws: `VaultError.secretFileUnusable` with `path` and the problem.
  public static func decode(_ bytes: [UInt8], path: String) throws(VaultError) -> EnrolledPattern {
    switch StateFileCodec.open(bytes, kind: kind, versions: [StateFileCodec.version, tpmVersion]) {
    case .failure(let damage):
      throw .secretFileUnusable(path: path, problem: damage.problem)
    case .success(let opened):
      let lines = opened.lines
      guard lines.count >= 2,
        let gridText = StateFileCodec.value(lines[0], key: "grid"), let grid = StateFileCodec.number(gridText[...]),
        grid >= 3 && grid <= 7,
        let minText = StateFileCodec.value(lines[1], key: "min-dots"), let minimum = StateFileCodec.number(minText[...]),
        minimum >= 1 && minimum <= grid * grid
      else {
        throw .secretFileUnusable(path: path, problem: "its first fields are not 'grid' and 'min-dots'")
      }
      if opened.version == tpmVersion {
        guard let enrolment = TPMEnrolment.parse(lines[2...]) else {
          throw .secretFileUnusable(path: path, problem: "its TPM fields are not 'argon2id', 'tpm-storage-key', 'tpm-index', 'tpm-index-name', 'tpm-sealed', 'tpm-recovery' and 'secret-check'")
        }
        return EnrolledPattern(gridSize: Int(grid), minimumDots: Int(minimum), tpm: enrolment)
      }
      guard lines.count == 4,
        let keyText = StateFileCodec.value(lines[2], key: "key"), let key = HexText.decodeBytes(keyText),
        key.count == keyBytes, HexText.encode(bytes: key) == keyText,
        let hash = StateFileCodec.value(lines[3], key: "hash"),
        let enrolled = EnrolledPattern(gridSize: Int(grid), minimumDots: Int(minimum), fingerprintKey: key, hash: hash)
      else {
        throw .secretFileUnusable(path: path, problem: "its fields are not 'grid', 'min-dots', 'key' and an Argon2id 'hash'")
      }
      return enrolled
    }
  }

  /// Reads the pattern file of a state directory.
  ///
  /// - Throws: `VaultError.notEnrolled` when there is none, `.secretFileUnusable`
  ///   when it cannot be trusted.
  public static func load(from directory: borrowing StateDirectory) throws(VaultError) -> EnrolledPattern {
    let path = directory.pathOf(name)
    switch directory.read(name) {
    case .missing: throw .notEnrolled(directory: directory.path)
    case .unusable(let problem): throw .secretFileUnusable(path: path, problem: problem)
    case .bytes(let bytes): return try decode(bytes, path: path)
    }
  }

  /// The owner's new pattern while other credentials are judged with the owner's salt
  /// and cost (`CredentialFile`): hashed again with `existing`'s salt and cost, so their
  /// verifiers still hold, and a fresh fingerprint key, so no wrong pattern remembered
  /// before is mistaken for a repeat of the new one.
  ///
  /// - Throws: `VaultError.patternTooShort`, `.patternCommon`, `.hashingFailed`, `.sodiumUnavailable`,
  ///   `.credentialPatternTaken` when `dots` is another credential's pattern.
  public init(
    dots: DotSequence, minimumDots: Int, keepingSaltOf existing: EnrolledPattern, besides others: CredentialFile,
    guardedBy patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    guard case .hash(_, let parameters, _) = existing.protection else {
      throw .hashingFailed(memoryBytes: existing.memoryBytes)
    }
    try EnrolledPattern.checkShape(dots, gridSize: existing.gridSize, minimumDots: minimumDots, guardedBy: patternGuard)
    let derivation = existing.derive(dots)
    guard let tag = derivation.withOutput({ Array($0.bindMemory(to: UInt8.self)) }) else {
      throw .hashingFailed(memoryBytes: existing.memoryBytes)
    }
    guard others.match(derivation) == nil else { throw .credentialPatternTaken }
    let key = try Sodium.randomBytes(EnrolledPattern.keyBytes)
    let hash = Argon2idString.text(setting: parameters.setting, tag: tag)
    guard let made = EnrolledPattern(gridSize: existing.gridSize, minimumDots: minimumDots, fingerprintKey: key, hash: hash) else {
      throw .hashingFailed(memoryBytes: existing.memoryBytes)
    }
    self = made
  }

  /// Stores the pattern (crash-safely). On a first enrolment (no attempts file yet) a
  /// clean attempts file is written first, so a crash between the two writes leaves
  /// "not enrolled" rather than a pattern with a missing (so locking) attempts file.
  /// An existing attempts file is left alone, damaged or not: replacing the pattern
  /// is not a reset (that is `reset-attempts`). Both writes hold the directory's lock.
  ///
  /// With `auditReason` (`set-pattern`, `enroll`) a `pattern-set` entry is appended to
  /// the audit log first, under the same lock: a change the log cannot hold is not made.
  /// `guesses` is the new pattern's `GuessEstimate.bucket` for that entry.
  ///
  /// The earlier pattern's `PatternCheck` goes after the new pattern is stored: the next
  /// unlock looks at the new one.
  ///
  /// - Throws: `VaultError.systemCall`, `.stateBusy`, `.auditNotWritten`.
  public func save(to directory: borrowing StateDirectory, auditReason: String? = nil, guesses: String? = nil) throws(VaultError) {
    try directory.withExclusiveLock { () throws(VaultError) in
      if let auditReason {
        var failures = 0
        if case .intact(let record) = AttemptsFile.load(from: directory) { failures = record.failures }
        let entry = AuditEntry(
          event: .patternSet, failures: failures, reason: auditReason, wallSeconds: WallClock.seconds(), guesses: guesses)
        try AuditLog.append(entry, to: directory)
      }
      if case .missing = directory.read(AttemptsFile.name) {
        try AttemptsFile.save(.clean, to: directory)
      }
      try directory.write(EnrolledPattern.name, encode())
      try directory.remove(PatternCheck.name)
    }
  }
}
