import LockEvents
import PatternCore
import SystemCalls

/// The credentials besides the owner's pattern: `credentials` in the state directory.
/// Absent until the first `credential add`, so a state directory from before several
/// credentials reads as the owner alone, unchanged.
///
/// ```
/// patternlock-credentials 1
/// key <64 hex digits>
/// credential alice user - <64 hex digits> Mon-Fri 08:00-18:00
/// credential panic duress 2027-01-31T18:00 <64 hex digits> -
/// checksum <32 hex digits>
/// ```
///
/// Every credential is judged with the owner's Argon2id salt and cost, so one attempt
/// runs Argon2id once whatever the number of credentials; the output is then keyed
/// (BLAKE2b-256 with `key`) into a verifier and compared, in constant time, with every
/// credential's, all of them, whichever matches. Testing a guess against the file
/// therefore costs what testing it against the owner's hash does: one Argon2id run for
/// all credentials together (docs/security.md says what that means for the odds).
/// The owner's salt must not change under them: while other credentials exist,
/// `set-pattern` and `enroll` hash a new owner's pattern with the same salt and cost.
public struct CredentialFile: Equatable, Sendable {
  public static let name = "credentials"
  static let kind = "patternlock-credentials"
  static let keyBytes = 32
  static let verifierBytes = 32
  /// The most credentials besides the owner: a bound on the file, on `credential
  /// list`, and on the comparisons of one attempt.
  public static let maximumCount = 100
  /// The file's size bound (a full file is about 14 KiB).
  static let maximumBytes = 32 * 1024

  let key: [UInt8]
  public private(set) var credentials: [Credential]

  /// No credentials besides the owner (no file yet).
  public static let none = CredentialFile(key: [], credentials: [])

  init(key: [UInt8], credentials: [Credential]) {
    self.key = key
    self.credentials = credentials
  }

  /// The verifier a derivation gives with this file's key; nil when Argon2id failed.
  func verifier(of derivation: borrowing PatternDerivation) -> [UInt8]? {
    guard !key.isEmpty else { return nil }
    let key = self.key
    return derivation.withOutput { output in Sodium.digest(output, length: CredentialFile.verifierBytes, key: key) }
  }

  /// The credential whose pattern gave `derivation`, if any. Every verifier is compared
  /// (in constant time each), so the time taken says nothing about which one matched.
  func match(_ derivation: borrowing PatternDerivation) -> Credential? {
    guard !credentials.isEmpty, let verifier = verifier(of: derivation) else { return nil }
    var found: Credential?
    for credential in credentials {
      let equal = Sodium.equalInConstantTime(verifier, credential.verifier)
      if equal { found = credential }
    }
    return found
  }

  /// The file's bytes.
  func encode() -> [UInt8] {
    var lines = ["key \(HexText.encode(bytes: key))"]
    for credential in credentials {
      lines.append(
        "credential \(credential.name) \(credential.role.rawValue) \(credential.expires ?? "-") "
          + "\(HexText.encode(bytes: credential.verifier)) \(credential.hours?.text ?? "-")")
    }
    return StateFileCodec.seal(kind: CredentialFile.kind, lines: lines)
  }

  /// Parses the file's bytes; nil with the problem when they cannot be trusted.
  static func decode(_ bytes: [UInt8]) -> Result<CredentialFile, StateFileDamage> {
    switch StateFileCodec.open(bytes, kind: kind) {
    case .failure(let damage):
      return .failure(damage)
    case .success(let lines):
      guard let first = lines.first, let keyText = StateFileCodec.value(first, key: "key"),
        let key = HexText.decodeBytes(keyText), key.count == keyBytes, HexText.encode(bytes: key) == keyText
      else { return .failure(StateFileDamage("its first field is not 'key' and 64 hex digits")) }
      var credentials: [Credential] = []
      for line in lines.dropFirst() {
        guard let credential = parse(line), !credentials.contains(where: { $0.name == credential.name }) else {
          return .failure(StateFileDamage("a line after 'key' is not 'credential NAME ROLE EXPIRES VERIFIER HOURS' with a new name"))
        }
        credentials.append(credential)
      }
      guard credentials.count <= maximumCount else { return .failure(StateFileDamage("it holds more than \(maximumCount) credentials")) }
      return .success(CredentialFile(key: key, credentials: credentials))
    }
  }

  private static func parse(_ line: String) -> Credential? {
    guard let value = StateFileCodec.value(line, key: "credential") else { return nil }
    let fields = value.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 5, Credential.isValidName(fields[0]), fields[0] != AuditEntry.owner,
      let role = CredentialRole(rawValue: fields[1]),
      let verifier = HexText.decodeBytes(fields[3]), verifier.count == verifierBytes, HexText.encode(bytes: verifier) == fields[3]
    else { return nil }
    var expires: String?
    if fields[2] != "-" {
      guard UTCTime.parse(fields[2]) != nil, fields[2].utf8.count == 16 else { return nil }
      expires = fields[2]
    }
    var hours: CredentialHours?
    if fields[4] != "-" {
      guard let parsed = CredentialHours(fields[4]), parsed.text == fields[4] else { return nil }
      hours = parsed
    }
    return Credential(name: fields[0], role: role, expires: expires, hours: hours, verifier: verifier)
  }

  /// Reads the credentials of a state directory; no file is no credentials.
  ///
  /// - Throws: `VaultError.credentialsFileUnusable` when the file cannot be trusted.
  public static func load(from directory: borrowing StateDirectory) throws(VaultError) -> CredentialFile {
    let path = directory.pathOf(name)
    switch directory.read(name, limit: maximumBytes) {
    case .missing: return .none
    case .unusable(let problem): throw .credentialsFileUnusable(path: path, problem: problem)
    case .bytes(let bytes):
      switch decode(bytes) {
      case .success(let file): return file
      case .failure(let damage): throw .credentialsFileUnusable(path: path, problem: damage.problem)
      }
    }
  }

  /// Adds a credential for `dots`, holding the directory's lock, after a
  /// `credential-added` entry in the audit log. The owner's pattern gives the salt and
  /// cost, and must be hashed (not TPM-bound).
  ///
  /// - Throws: `VaultError.credentialNameTaken`, `.credentialPatternTaken`,
  ///   `.credentialsFull`, `.credentialsNeedHashedPattern`, `.notEnrolled`,
  ///   `.patternTooShort`, `.patternCommon` (what `patternGuard` refuses), `.hashingFailed`,
  ///   `.auditNotWritten`, `.systemCall`: nothing is added then. `guesses` is the new
  ///   pattern's `GuessEstimate.bucket` for the log entry.
  public static func add(
    name: String, role: CredentialRole, expires: String?, hours: CredentialHours?, dots: DotSequence,
    in directory: borrowing StateDirectory, guardedBy patternGuard: PatternGuard = PatternGuard(), guesses: String? = nil
  ) throws(VaultError) {
    try directory.withExclusiveLock { () throws(VaultError) in
      let owner = try EnrolledPattern.load(from: directory)
      guard owner.tpmEnrolment == nil else { throw .credentialsNeedHashedPattern(path: directory.pathOf(EnrolledPattern.name)) }
      guard dots.count >= owner.minimumDots else { throw .patternTooShort(dots: dots.count, minimum: owner.minimumDots) }
      try patternGuard.check(dots, gridSize: owner.gridSize, minimumDots: owner.minimumDots)
      var file = try load(from: directory)
      guard !file.credentials.contains(where: { $0.name == name }) else { throw .credentialNameTaken(name: name) }
      guard file.credentials.count < maximumCount else { throw .credentialsFull(maximum: maximumCount) }
      if file.key.isEmpty { file = CredentialFile(key: try Sodium.randomBytes(keyBytes), credentials: []) }
      let derivation = owner.derive(dots)
      guard derivation.succeeded, let verifier = file.verifier(of: derivation) else {
        throw .hashingFailed(memoryBytes: owner.memoryBytes)
      }
      // Two credentials with one pattern could not be told apart; refusing says that
      // this pattern is taken, which only whoever may add credentials learns.
      guard !owner.matches(derivation), file.match(derivation) == nil else { throw .credentialPatternTaken }
      file.credentials.append(Credential(name: name, role: role, expires: expires, hours: hours, verifier: verifier))
      try AuditLog.append(
        AuditEntry(event: .credentialAdded, credential: name, failures: currentFailures(directory), reason: role.rawValue,
          wallSeconds: WallClock.seconds(), guesses: guesses), to: directory)
      try directory.write(CredentialFile.name, file.encode())
    }
  }

  /// Removes the credential `name`, holding the directory's lock, after a
  /// `credential-removed` entry in the audit log.
  ///
  /// - Throws: `VaultError.credentialUnknown`, `.credentialsFileUnusable`,
  ///   `.auditNotWritten`, `.systemCall`: nothing is removed then.
  public static func remove(name: String, in directory: borrowing StateDirectory) throws(VaultError) {
    try directory.withExclusiveLock { () throws(VaultError) in
      var file = try load(from: directory)
      guard let index = file.credentials.firstIndex(where: { $0.name == name }) else { throw .credentialUnknown(name: name) }
      file.credentials.remove(at: index)
      try AuditLog.append(
        AuditEntry(event: .credentialRemoved, credential: name, failures: currentFailures(directory), wallSeconds: WallClock.seconds()),
        to: directory)
      try directory.write(CredentialFile.name, file.encode())
    }
  }

  private static func currentFailures(_ directory: borrowing StateDirectory) -> Int {
    if case .intact(let record) = AttemptsFile.load(from: directory) { return record.failures }
    return 0
  }
}
