import CommandKit
import PatternCore
import Scene
import Screen
import SystemCalls
import TPM
import Vault

/// Decides the patterns `run` is shown against the Argon2id hash and the throttled
/// attempts file in the state directory. (`run --pattern`, for development only,
/// uses `DevelopmentJudge` instead.) `replay --state-dir` judges with it too, on the
/// recording's clock and against a copy in memory, so its lines and pictures are the
/// device's and the device's state is never touched.
///
/// Every path that is not a verified correct pattern is a refusal: an attempt that
/// cannot be recorded is not judged at all, a damaged attempts file is a lockout
/// (the Vault fails closed), and nothing here ever unlocks on an error.
package struct VaultGate: PatternJudge, ~Copyable {
  private var session: UnlockSession
  private var minimumDots: Int
  private let clock: UnlockClock
  /// The first attempt that could not be recorded, if one could not: `replay` exits
  /// with its status once the pictures are out (`run` shows it and goes on).
  package private(set) var attemptFailure: VaultError?
  /// The hooks and door strike started after each judgement (`run` only: a replay
  /// judges a copy and must not open anything).
  package var actions: UnlockActions?
  /// Whether a finished pattern waits to be judged until the screen says "Checking…"
  /// (`run`, `session-lock --state-dir`): Argon2id and the TPM hold the loop while they
  /// work, so the lock says so first, as the session lock does while its judge works.
  /// A replay judges at once, on the recording's clock.
  package var defersJudging = false
  /// The pattern waiting to be judged (`takeAnswer`).
  private var deferred: GestureOutcome?

  /// The stored secret in `stateDirectory`, judged in place (`run`); refuses to start
  /// (exit 6) without one.
  ///
  /// - Parameters:
  ///   - start: now on the live monotonic clock: a lockout still running starts again
  ///     in full here.
  ///   - patternGuard: the enrolment guard the owner's pattern is looked up in at its
  ///     first unlock (`UnlockSession`).
  package init(
    stateDirectory path: String, throttle: ThrottleTable, tcti: String,
    startingAt start: UInt64 = MonotonicClock.microseconds(), patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    let directory = try StateDirectory(opening: path, creating: false)
    try self.init(
      store: DirectoryAttemptStore(directory), throttle: throttle, clock: .live, startingAt: start, tcti: tcti,
      patternGuard: patternGuard)
  }

  /// A copy of the secret and attempts in `stateDirectory`, judged in memory on a
  /// recording's clock (`replay --state-dir`): the directory itself is never written,
  /// so a recording's timestamps can neither lift nor shorten a real lockout.
  package init(copyOf path: String, throttle: ThrottleTable, clock: UnlockClock, startingAt start: UInt64) throws(VaultError) {
    let directory = try StateDirectory(opening: path, creating: false)
    // A TPM-bound pattern is judged only by its TPM, which counts every try: a copy
    // cannot be judged without spending the owner's tries.
    if (try? EnrolledPattern.load(from: directory))?.tpmEnrolment != nil { throw .tpmBoundNotReplayable(path: path) }
    // A copy keeps nothing it learns, so the owner's pattern is not looked up either.
    try self.init(
      store: MemoryAttemptStore(copying: directory), throttle: throttle, clock: clock, startingAt: start,
      patternGuard: PatternGuard(blocklistSize: nil))
  }

  /// A gate over any store (tests give it one whose writes fail).
  package init(
    store: any AttemptStore, throttle: ThrottleTable, clock: UnlockClock, startingAt start: UInt64,
    tcti: String = TrustedPlatformModule.defaultTCTI, patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    var session = try UnlockSession(
      store: store, table: throttle, startingAt: clock.instant(start), tcti: tcti, patternGuard: patternGuard)
    session.reportDamage(to: Console.error)
    minimumDots = session.enrolled.minimumDots
    self.session = session
    self.clock = clock
  }

  /// The gate for a pattern `run --enroll-first` has just stored, on a display that
  /// is already taken: a failure is thrown for the caller to report and return from
  /// (so the display and console are restored), never exited on.
  package init(
    justEnrolledIn path: String, throttle: ThrottleTable, tcti: String, patternGuard: PatternGuard = PatternGuard()
  ) throws(VaultError) {
    let directory = try StateDirectory(opening: path, creating: false)
    let store = DirectoryAttemptStore(directory)
    let session = try UnlockSession(
      store: store, table: throttle, startingAt: UnlockClock.live.instant(MonotonicClock.microseconds()), tcti: tcti,
      patternGuard: patternGuard)
    minimumDots = session.enrolled.minimumDots
    self.session = session
    clock = .live
  }

  /// Whether `path` holds no pattern at all: the directory, or the pattern file in
  /// it, does not exist. Only then does `run --enroll-first` enrol. A pattern file
  /// that exists but cannot be trusted is not "no pattern" (the Vault fails closed on
  /// it and `run` refuses to start), nor is a directory that cannot be opened for any
  /// other reason.
  package static func hasNoPattern(_ path: String) -> Bool {
    do throws(VaultError) {
      let directory = try StateDirectory(opening: path, creating: false)
      _ = try EnrolledPattern.load(from: directory)
      return false
    } catch {
      switch error {
      case .stateDirectoryMissing, .notEnrolled: return true
      default: return false
      }
    }
  }

  /// Refuses (exit 2) a pattern enrolled for another grid than `gridSize`: its dot
  /// numbers would name other places.
  package mutating func requireGrid(_ gridSize: Int) throws(VaultError) {
    let enrolled = session.enrolled.gridSize
    if enrolled != gridSize { throw .gridMismatch(enrolled: enrolled, inUse: gridSize) }
  }

  /// The fewest dots a pattern needs to be checked at all.
  package var minimumDotsToCheck: Int { minimumDots }

  /// The lockout in force at start-up (one running before a restart starts again in full).
  package mutating func lockoutAtStart(now: UInt64) -> Lockout {
    guard let decision = session.policy.gate(at: clock.instant(now)) else { return .none }
    return decision.lockout
  }

  /// Judges a finished pattern at `now` (monotonic, on the gate's clock) and prints its
  /// result line. The line never names the dots: in `run` and `check` they would be
  /// the secret in a log, and `replay --state-dir` judges a real secret too.
  ///
  /// An attempt that could not be recorded is not judged: `run` then shows the
  /// storage error and tries the storage again (`retryStorage`) until a write succeeds.
  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    // A pattern too short to be checked is answered at once: no Argon2id runs for it.
    guard defersJudging, outcome.dots.count >= minimumDots else { return judgeNow(outcome, at: now) }
    deferred = outcome
    // Due at once: the loop presents "Checking…" before its timer brings the answer.
    return .pending(answerBy: now)
  }

  /// Judges the deferred pattern; the loop calls it right after "Checking…" was
  /// presented.
  package mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
    guard let outcome = deferred else { return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain)) }
    deferred = nil
    return judgeNow(outcome, at: now)
  }

  private mutating func judgeNow(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let judged: JudgedAttempt
    do throws(VaultError) {
      judged = try session.judge(outcome.dots, at: clock.instant(now), journal: Console.error)
    } catch {
      Console.error(error.message)
      if attemptFailure == nil { attemptFailure = error }
      if case .stateBusy = error {
        return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
      }
      return LockScreenController.Judgement(
        verdict: .rejected(VaultGate.refusalPrompt(for: error)),
        storageRetryAt: now + StorageRetry.intervalMicroseconds)
    }
    minimumDots = session.enrolled.minimumDots
    Console.out(judged.decision.jsonLine)
    actions?.after(judged)
    return JudgeAnswer(judged).judgement(minimumDots: minimumDots)
  }

  /// Tries the storage again after an attempt could not be recorded (`run`).
  ///
  /// - Returns: still failing, or the lockout the recorded attempts impose now.
  /// What the locked screen says when an attempt was not judged: the TPM's own
  /// lockout as the lock until reset, a TPM without a verdict as such, else storage.
  package static func refusalPrompt(for error: VaultError) -> PromptText {
    switch error {
    case .tpm(.lockedOut): return .lockedUntilReset
    case .tpm: return .tpmError
    default: return .storageError
    }
  }

  package mutating func retryStorage(at now: UInt64) -> StorageRetry {
    do throws(VaultError) {
      try session.probeJudging(at: clock.instant(now))
    } catch {
      return .stillFailing
    }
    Console.error("the state directory can be written again: attempts are judged again")
    guard let decision = session.policy.gate(at: clock.instant(now)) else { return .recorded(then: .none) }
    return .recorded(then: decision.lockout)
  }
}
