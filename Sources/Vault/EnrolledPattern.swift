import PatternCore

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
public struct EnrolledPattern: Equatable {
  /// The file's name in the state directory.
  public static let name = "pattern"
  static let kind = "patternlock-pattern"
  static let keyBytes = 32

  /// Dots per side of the grid the pattern was set on (3 to 7).
  public let gridSize: Int
  /// Patterns with fewer dots are too short (and never counted).
  public let minimumDots: Int
  /// The fingerprint key (`crypto_generichash` key), 32 random bytes.
  let fingerprintKey: [UInt8]
  /// `crypto_pwhash_str` output.
  let hash: String
  /// Its salt, cost and tag.
  let parameters: Argon2idString

  /// Nil when `hash` is not a string `crypto_pwhash_str` writes.
  init?(gridSize: Int, minimumDots: Int, fingerprintKey: [UInt8], hash: String) {
    guard let parameters = Argon2idString(hash) else { return nil }
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    self.fingerprintKey = fingerprintKey
    self.hash = hash
    self.parameters = parameters
  }

  /// Hashes a new pattern with a fresh salt and fingerprint key.
  ///
  /// - Throws: `VaultError.patternTooShort`, `.hashingFailed`, `.sodiumUnavailable`.
  public init(dots: DotSequence, gridSize: Int, minimumDots: Int, cost: HashCost) throws(VaultError) {
    precondition(gridSize >= 3 && gridSize <= 7, "grid size out of range")
    precondition(minimumDots >= 1 && minimumDots <= gridSize * gridSize, "minimum dots out of range")
    guard dots.count >= minimumDots else { throw .patternTooShort(dots: dots.count, minimum: minimumDots) }
    let secret = PatternText.canonical(dots, gridSize: gridSize)
    let hash = try Sodium.hash(secret, cost: cost)
    let key = try Sodium.randomBytes(EnrolledPattern.keyBytes)
    guard let made = EnrolledPattern(gridSize: gridSize, minimumDots: minimumDots, fingerprintKey: key, hash: hash) else {
      throw .hashingFailed(memoryBytes: cost.memoryBytes)
    }
    self = made
  }

  /// Runs Argon2id over `dots` with the pattern's salt and cost (its time and memory).
  func derive(_ dots: DotSequence) -> PatternDerivation {
    PatternDerivation(PatternText.canonical(dots, gridSize: gridSize), parameters: parameters)
  }

  /// Whether a derivation is the pattern's own.
  func matches(_ derivation: borrowing PatternDerivation) -> Bool {
    derivation.matches(parameters.tag)
  }

  /// Whether `dots` is the pattern (Argon2id; takes the hash's cost in time and memory).
  public func matches(_ dots: DotSequence) -> Bool {
    matches(derive(dots))
  }

  /// The fingerprint of an entered pattern, for recognising a repeated wrong one:
  /// made from its Argon2id output, so it costs a guesser what the hash does.
  /// Nil when Argon2id could not run.
  func fingerprint(of derivation: borrowing PatternDerivation) -> PatternFingerprint? {
    derivation.fingerprint(key: fingerprintKey)
  }

  /// `fingerprint(of:)` for dots (runs Argon2id).
  public func fingerprint(of dots: DotSequence) -> PatternFingerprint? {
    fingerprint(of: derive(dots))
  }

  /// The file's bytes.
  public func encode() -> [UInt8] {
    StateFileCodec.seal(kind: EnrolledPattern.kind, lines: [
      "grid \(gridSize)", "min-dots \(minimumDots)", "key \(HexText.encode(bytes: fingerprintKey))", "hash \(hash)",
    ])
  }

  /// Parses the file's bytes.
  ///
  /// - Throws: `VaultError.secretFileUnusable` with `path` and the problem.
  public static func decode(_ bytes: [UInt8], path: String) throws(VaultError) -> EnrolledPattern {
    switch StateFileCodec.open(bytes, kind: kind) {
    case .failure(let damage):
      throw .secretFileUnusable(path: path, problem: damage.problem)
    case .success(let lines):
      guard lines.count == 4,
        let gridText = StateFileCodec.value(lines[0], key: "grid"), let grid = StateFileCodec.number(gridText[...]),
        grid >= 3 && grid <= 7,
        let minText = StateFileCodec.value(lines[1], key: "min-dots"), let minimum = StateFileCodec.number(minText[...]),
        minimum >= 1 && minimum <= grid * grid,
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

  /// Stores the pattern (crash-safely). On a first enrolment (no attempts file yet) a
  /// clean attempts file is written first, so a crash between the two writes leaves
  /// "not enrolled" rather than a pattern with a missing (so locking) attempts file.
  /// An existing attempts file is left alone, damaged or not: replacing the pattern
  /// is not a reset (that is `reset-attempts`). Both writes hold the directory's lock.
  ///
  /// - Throws: `VaultError.systemCall`, `.stateBusy`.
  public func save(to directory: borrowing StateDirectory) throws(VaultError) {
    try directory.withExclusiveLock { () throws(VaultError) in
      if case .missing = directory.read(AttemptsFile.name) {
        try AttemptsFile.save(.clean, to: directory)
      }
      try directory.write(EnrolledPattern.name, encode())
    }
  }
}
