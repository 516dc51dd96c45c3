import LockEvents
import PatternCore
import TPM

/// Judges patterns against an `AttemptStore` in Android Gatekeeper's order, so that no
/// race, crash, full disk or read-only file system can ever give a guess for free.
///
/// One attempt, all under the store's exclusive lock:
/// 1. read the record as it is now (never a copy from start-up: another process may
///    have counted since) and the pattern;
/// 2. the lockout gate: during a lockout nothing is verified;
/// 3. too short: not counted, not verified;
/// 4. Argon2id over the pattern with the enrolled salt and cost; a repeat of a recent
///    wrong pattern (a fingerprint of that output, 5 minutes): wrong, not counted
///    again, not verified;
/// 5. write the failure as already counted (failures + 1), synced, *before* verifying;
///    if that write fails the pattern is not verified at all (`attemptNotRecorded`);
/// 6. compare the output with the enrolled tag and, keyed, with every other credential's
///    verifier (`CredentialFile`: one Argon2id run whatever their number); a credential
///    that may not unlock now (expired, outside its hours) is a wrong pattern; on
///    success write the cleared record; on failure write the
///    wrong pattern's fingerprint for the repeat rule (best effort: the failure is
///    already counted, so losing it only costs the user a repeat).
/// A crash anywhere after 5 leaves the failure counted; a right pattern's count is
/// taken back only by step 6.
///
/// The audit log follows the same order: an `attempt` entry (with the count it is
/// about to have) just before the count is written in step 5, a verdict entry (`wrong`, with `lockout` when one begins;
/// `unlocked` before the count is taken back) in step 6, and a `refused` entry for a
/// pattern refused in 2 or 4. An entry that cannot be written makes the attempt not
/// judged (`auditNotWritten`), as a count that cannot be written does.
///
/// A pattern bound to a TPM: before step 5 the TPM is opened and checked (the enrolled
/// TPM, not in lockout), so an absent or foreign TPM costs no count; in step 6 the TPM
/// judges (and counts a wrong pattern itself), and only a secret it unsealed that
/// matches the state unlocks. No verdict from it, after step 5, leaves the failure
/// counted and throws `VaultError.tpm`: never an unlock, never the software hash.
///
/// The owner's first unlock after an enrolment (or after `[vault] blocklist` changed)
/// also stores whether the enrolment guard would refuse the pattern now (`PatternCheck`):
/// a pattern set before the guard, or while it was off, keeps unlocking, and `status`
/// says it should be replaced.
public struct UnlockSession {
  private let store: any AttemptStore
  /// The guard whose list the owner's pattern is looked up in at its first unlock.
  private let patternGuard: PatternGuard
  /// The pattern that unlocks, as last read.
  public private(set) var enrolled: EnrolledPattern
  /// The policy, with the record as last read or written.
  public private(set) var policy: UnlockPolicy
  /// Why the attempts file was not believed the last time it was read, if it was not:
  /// the caller logs it. The session is then locked until `reset-attempts`.
  public private(set) var attemptsDamage: String?
  /// Why the cleared record could not be written after the last unlock, if it could not:
  /// the failure counted in step 5 then stays counted (never the other way round).
  public private(set) var clearingFailure: VaultError?
  /// Where a TPM-bound pattern's TPM is (a tpm2-tss TCTI string).
  public let tcti: String
  /// The credential that unlocked in the last attempt; nil when it did not unlock.
  public private(set) var unlockedCredential: JudgedCredential?
  /// The credentials besides the owner, as last read.
  private var others = CredentialFile.none
  /// The damage of the attempts file last said in the journal, so each is said once.
  var reportedDamage: String?

  /// Loads the pattern and the attempts record from `store`.
  ///
  /// - Parameters:
  ///   - now: the start of this run; a lockout still running restarts from here.
  /// - Throws: `VaultError.notEnrolled`, `.secretFileUnusable`.
  public init(
    store: any AttemptStore, table: ThrottleTable, startingAt now: UnlockInstant,
    tcti: String = TrustedPlatformModule.defaultTCTI, patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    self.store = store
    self.tcti = tcti
    self.patternGuard = patternGuard
    enrolled = try store.loadPattern()
    let state = store.loadAttempts()
    if case .damaged(let problem) = state { attemptsDamage = problem } else { attemptsDamage = nil }
    policy = UnlockPolicy(table: table, record: state.record(failingClosedWith: table), startingAt: now)
  }

  /// The attempts file's path, for messages.
  public var attemptsPath: String { store.attemptsPath }

  /// Judges one finished pattern (see the type for the order).
  ///
  /// - Throws: `VaultError.stateBusy` when the lock could not be had,
  ///   `.attemptNotRecorded` when the failure could not be counted first,
  ///   `.notEnrolled`/`.secretFileUnusable` when the pattern file went away or was
  ///   damaged: in each case the pattern was not verified.
  public mutating func attempt(_ dots: DotSequence, at now: UnlockInstant) throws(VaultError) -> UnlockDecision {
    try store.beginAttempt()
    defer { store.endAttempt() }
    unlockedCredential = nil
    enrolled = try store.loadPattern()
    // A TPM-bound owner has no other credentials: their verifiers would be made from
    // the TPM's authValue, which nothing on disk may be testable against.
    others = enrolled.tpmEnrolment == nil ? try store.loadCredentials() : .none
    let state = store.loadAttempts()
    if case .damaged(let problem) = state { attemptsDamage = problem } else { attemptsDamage = nil }
    policy.adopt(state.record(failingClosedWith: policy.table), at: now)

    if let locked = policy.gate(at: now) {
      try audit(.refused, reason: "locked-out", at: now)
      return locked
    }
    guard dots.count >= enrolled.minimumDots else { return UnlockDecision(result: .tooShort) }
    // Argon2id runs before anything is compared: its output is both the fingerprint
    // for the repeat rule and, only after the count is written, the verdict.
    let derivation = enrolled.derive(dots)
    let fingerprint = enrolled.fingerprint(of: derivation)
    if let fingerprint, policy.isRecentRepeat(fingerprint, at: now) {
      try audit(.refused, reason: "repeat", at: now)
      return UnlockDecision(result: .wrong)
    }

    let tpm = try openTPM()

    var counted = policy
    let failed = counted.countFailure(at: now)
    // The attempt is in the log before it is counted, so every counted attempt is
    // there whatever kill comes after; one without a verdict was never verified.
    try audit(.attempt, failures: counted.record.failures, at: now)
    do {
      try store.saveAttempts(counted.record)
    } catch {
      // Best effort: a log that took the attempt may take why it was not judged.
      try? audit(.refused, reason: "not-recorded", at: now)
      throw VaultSessionFailure.notRecorded(error, path: store.attemptsPath)
    }
    policy = counted
    UnlockSession.reached(.countedBeforeVerifying)
    var judged: JudgedCredential?
    var refusal: String?
    if let enrolment = enrolled.tpmEnrolment, let tpm {
      if try enrolment.judge(derivation, on: tpm) { judged = .owner }
    } else {
      // Both are compared whatever the first says: one Argon2id output, checked
      // against every verifier, in time that does not say which matched.
      let owner = enrolled.matches(derivation)
      let other = others.match(derivation)
      if owner {
        judged = .owner
      } else if let other {
        judged = JudgedCredential(name: other.name, role: other.role)
        refusal = other.refusal(atWall: now.wallSeconds)
      }
    }
    UnlockSession.reached(.judgedBeforeWriting)
    guard let judged, refusal == nil else {
      // An expired credential, or one outside its hours, is a wrong pattern like any
      // other (counted, and the same on screen); only the log says whose and why.
      try audit(.wrong, credential: refusal == nil ? nil : judged?.name, reason: refusal, at: now)
      if failed.lockout != .none {
        try audit(.lockout, reason: failed.lockout.seconds.map { "\($0)" } ?? "permanent", at: now)
      }
      if let fingerprint {
        var remembered = policy
        remembered.rememberWrong(fingerprint, at: now)
        if (try? store.saveAttempts(remembered.record)) != nil { policy = remembered }
      }
      return failed
    }

    // Logged before the count is taken back: an unlock the log cannot hold is not shown.
    try audit(.unlocked, credential: judged.name, reason: judged.role == .duress ? "duress" : nil, at: now)
    unlockedCredential = judged
    clearingFailure = nil
    var cleared = policy
    if cleared.recordCorrect() {
      do {
        try store.saveAttempts(cleared.record)
        policy = cleared
      } catch {
        clearingFailure = error
      }
    }
    if judged == .owner { lookUpOwnerPattern(dots) }
    return UnlockDecision(result: .unlocked)
  }

  /// Stores whether the guard refuses the owner's pattern that just unlocked, unless
  /// that was already looked up against a list of the same size. Best effort: advice
  /// that cannot be stored is looked for again at the next unlock, and never changes
  /// the verdict.
  private func lookUpOwnerPattern(_ dots: DotSequence) {
    guard let size = patternGuard.blocklistSize else { return }
    if let known = store.loadPatternCheck(), known.blocklistSize == size { return }
    let common = patternGuard.refuses(dots, gridSize: enrolled.gridSize, minimumDots: enrolled.minimumDots)
    _ = try? store.savePatternCheck(PatternCheck(isCommon: common, blocklistSize: size))
  }

  /// Appends an entry with the failure count as it now stands.
  ///
  /// - Throws: `VaultError.auditNotWritten`, `.auditLogUnusable`: the attempt was not
  ///   judged (a failure counted before stays counted).
  /// Without `credential`, the entry names the owner when the owner is the only
  /// credential, and none (`AuditEntry.unidentified`) when there are others.
  private func audit(
    _ event: AuditEntry.Event, credential: String? = nil, failures: Int? = nil, reason: String? = nil,
    at now: UnlockInstant
  ) throws(VaultError) {
    let name = credential ?? (others.credentials.isEmpty ? AuditEntry.owner : AuditEntry.unidentified)
    try store.appendAudit(
      AuditEntry(event: event, credential: name, failures: failures ?? policy.record.failures, reason: reason, at: now))
  }

  /// The enrolled TPM, checked, for a TPM-bound pattern; nil for a hashed one.
  private func openTPM() throws(VaultError) -> TrustedPlatformModule? {
    guard let enrolment = enrolled.tpmEnrolment else { return nil }
    let tpm: TrustedPlatformModule
    tpm = try lifting(VaultError.tpm) { () throws(TPMProblem) in try TrustedPlatformModule(tcti: tcti) }
    try enrolment.prepare(tpm)
    return tpm
  }

  /// Rewrites the attempts record as it is (under the lock), to learn whether the state
  /// directory can be written again after an attempt could not be recorded.
  ///
  /// - Throws: what `attempt` throws before verifying.
  public mutating func probeWritable(at now: UnlockInstant) throws(VaultError) {
    try store.beginAttempt()
    defer { store.endAttempt() }
    let state = store.loadAttempts()
    policy.adopt(state.record(failingClosedWith: policy.table), at: now)
    guard case .intact(let record) = state else { return }  // damaged stays damaged: locked
    do {
      try store.saveAttempts(record)
    } catch {
      throw VaultSessionFailure.notRecorded(error, path: store.attemptsPath)
    }
  }

  /// `probeWritable`, and for a TPM-bound pattern also whether its TPM would judge now
  /// (there, enrolled, not in lockout): what the lock screen retries after an attempt
  /// that was not judged.
  ///
  /// - Throws: what `attempt` throws before counting.
  public mutating func probeJudging(at now: UnlockInstant) throws(VaultError) {
    try probeWritable(at: now)
    _ = try openTPM()
  }

  /// Points in `attempt` where a debug build may be told to die (crash tests).
  enum Step: Int {
    case countedBeforeVerifying = 20
    case judgedBeforeWriting = 21
  }

  private static func reached(_ step: Step) {
    StateDirectory.crashIfAsked(at: step.rawValue)
  }
}

/// Turns a failed write of a counted failure into the error that says the attempt was
/// not judged.
enum VaultSessionFailure {
  static func notRecorded(_ error: VaultError, path: String) -> VaultError {
    switch error {
    case .systemCall(let call, _, let errno): return .attemptNotRecorded(path: path, call: call, errno: errno)
    default: return error
    }
  }
}
