import CShim
import PatternCore
import Scene
import Vault

/// Decides the patterns `run` is shown against the Argon2id hash and the throttled
/// attempts file in the state directory. (`run --pattern`, for development only,
/// uses `DevelopmentVerdict` instead.)
///
/// Every path that is not a verified correct pattern is a refusal: an attempt that
/// cannot be recorded is not judged at all, a damaged attempts file is a lockout
/// (the Vault fails closed), and nothing here ever unlocks on an error.
struct VaultGate: ~Copyable {
  private var session: UnlockSession
  private let minimumDots: Int

  /// The stored secret in `stateDirectory`; refuses to start (exit 6) without one.
  init(stateDirectory path: String, throttle: ThrottleTable) {
    let directory = VaultCommandSupport.open(path, creating: false)
    let now = VaultGate.instant(pl_monotonic_microseconds())
    do throws(VaultError) {
      let session = try UnlockSession(directory: directory, table: throttle, startingAt: now)
      if let problem = session.attemptsDamage { VaultCommandSupport.reportDamage(problem, path: session.attemptsPath) }
      minimumDots = session.enrolled.minimumDots
      self.session = session
    } catch {
      VaultCommandSupport.fail(error)
    }
  }

  /// The fewest dots a pattern needs to be checked at all.
  ///
  /// `mutating` only so that it can be reached through an `Optional` without
  /// consuming the gate (a borrow through `!` is not expressible yet).
  mutating func minimumDotsToCheck() -> Int { minimumDots }

  /// The lockout in force at start-up (one running before a restart starts again in full).
  mutating func lockoutAtStart(now: UInt64) -> LockScreenController.Lockout? {
    guard let decision = session.policy.gate(at: VaultGate.instant(now)) else { return nil }
    return VaultGate.lockout(for: decision, now: now)
  }

  /// Judges a finished pattern and prints its result line (never the dots of a
  /// pattern checked against the real secret: they would be the secret in a log).
  mutating func judge(_ outcome: GestureOutcome, now: UInt64) -> LiveLockScreen.Judgement {
    let decision: UnlockDecision
    do throws(VaultError) {
      decision = try session.attempt(outcome.dots, at: VaultGate.instant(now))
    } catch {
      Console.error(error.message + "; the attempt was not judged")
      return LiveLockScreen.Judgement(verdict: .rejected(PromptText("Cannot record the attempt")), lockout: nil, unlocks: false)
    }
    var line = JSONObjectWriter()
    line.add("result", string: decision.result.name)
    if let retry = decision.retryInSeconds { line.add("retry_in_s", Int(retry)) }
    if let failures = decision.failures { line.add("failures", failures) }
    Console.out(line.json)
    return LiveLockScreen.Judgement(
      verdict: verdict(for: decision), lockout: VaultGate.lockout(for: decision, now: now), unlocks: decision.result == .unlocked)
  }

  private func verdict(for decision: UnlockDecision) -> LockScreenController.Verdict {
    switch decision.result {
    case .unlocked:
      return .accepted(PromptText("Unlocked"))
    case .tooShort:
      var text = PromptText("Too short: join at least ")
      text.append(minimumDots)
      text.append(" dots")
      return .rejected(text)
    case .lockedOut:
      return .rejected(decision.isPermanentlyLocked ? PromptText("Locked: ask an administrator") : PromptText("Too many tries"))
    case .wrong:
      let failures = session.policy.record.failures
      guard let left = triesBeforeLockout(after: failures), left <= 3 else {
        return .rejected(PromptText("Wrong pattern"))
      }
      var text = PromptText("Wrong pattern: ")
      text.append(left)
      text.append(left == 1 ? " try left" : " tries left")
      return .rejected(text)
    }
  }

  /// How many more wrong patterns are allowed before the next lockout, or nil when
  /// a lockout is already running.
  private func triesBeforeLockout(after failures: Int) -> Int? {
    let table = session.policy.table
    guard table.lockout(afterFailures: failures) == .none else { return nil }
    var next = failures + 1
    while table.lockout(afterFailures: next) == .none && next < failures + 1000 { next += 1 }
    return next - failures
  }

  private static func lockout(for decision: UnlockDecision, now: UInt64) -> LockScreenController.Lockout? {
    if decision.isPermanentlyLocked { return .permanent }
    guard let seconds = decision.retryInSeconds else { return nil }
    return .until(now + UInt64(max(seconds, 0)) * 1_000_000)
  }

  /// Now on both clocks: the monotonic one for lockouts, the wall one for the file.
  private static func instant(_ monotonic: UInt64) -> UnlockInstant {
    UnlockInstant(monotonicMicroseconds: monotonic, wallSeconds: pl_wall_seconds())
  }
}
