import PatternCore

/// One run's worth of checking patterns against the state directory: the enrolled
/// pattern, the policy, and the rule that the attempts file is written before a result
/// is returned.
///
/// Order of one attempt: the policy's gate (no hash is computed during a lockout), the
/// minimum length (too short never counts), Argon2id verification, the policy's
/// bookkeeping, and, when the record changed, the crash-safe write. If that write
/// fails, the attempt throws instead of returning a result, even for the right
/// pattern: no result is ever shown that the disk does not back.
public struct UnlockSession: ~Copyable {
  private let directory: StateDirectory
  /// The pattern that unlocks.
  public let enrolled: EnrolledPattern
  /// The policy, with the record as last persisted.
  public private(set) var policy: UnlockPolicy
  /// Why the attempts file was not believed, if it was not: the caller logs this once.
  /// The session is then locked until `reset-attempts`.
  public let attemptsDamage: String?

  /// Loads the pattern and the attempts of a state directory.
  ///
  /// - Parameters:
  ///   - directory: the opened state directory (kept open for writes).
  ///   - table: the throttle.
  ///   - now: the start of this run; a pending lockout restarts from here.
  /// - Throws: `VaultError.notEnrolled`, `.secretFileUnusable`.
  public init(directory: consuming StateDirectory, table: ThrottleTable, startingAt now: UnlockInstant) throws(VaultError) {
    enrolled = try EnrolledPattern.load(from: directory)
    let state = AttemptsFile.load(from: directory)
    if case .damaged(let problem) = state { attemptsDamage = problem } else { attemptsDamage = nil }
    policy = UnlockPolicy(table: table, record: state.record(failingClosedWith: table), startingAt: now)
    self.directory = directory
  }

  /// The attempts file's path, for messages.
  public var attemptsPath: String { directory.pathOf(AttemptsFile.name) }

  /// Judges one finished pattern.
  ///
  /// - Throws: `VaultError.systemCall` when the new record could not be persisted;
  ///   nothing is then reported and the record in memory is unchanged.
  public mutating func attempt(_ dots: DotSequence, at now: UnlockInstant) throws(VaultError) -> UnlockDecision {
    if let locked = policy.gate(at: now) { return locked }
    guard dots.count >= enrolled.minimumDots else { return UnlockDecision(result: .tooShort) }
    var next = policy
    let decision: UnlockDecision
    let changed: Bool
    if enrolled.matches(dots) {
      changed = next.recordCorrect()
      decision = UnlockDecision(result: .unlocked)
    } else {
      decision = next.recordWrong(enrolled.fingerprint(of: dots), at: now)
      changed = decision.failures != nil
    }
    if changed { try AttemptsFile.save(next.record, to: directory) }
    policy = next
    return decision
  }
}
