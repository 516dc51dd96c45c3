import PatternCore
import Scene
import Screen

/// What judges `run`'s patterns: the vault, enrolment (`enroll`, `--enroll-first`),
/// the development pattern, (`session-lock`) the judge's socket, or (`password-agent`)
/// the TPM behind a password request.
///
/// The judges are non-copyable, so each call takes the payload out of `self`, uses it
/// and puts it back.
package enum RunJudge: PatternJudge, ~Copyable {
  case vault(VaultGate)
  case enrolment(EnrollmentGate)
  case development(DevelopmentJudge)
  /// `session-lock`'s judge over patternlock-judge.socket.
  case socket(SocketJudge)
  /// `password-agent`'s: the pattern as a systemd password request's PIN.
  case passwordRequest(PasswordRequestJudge)

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    switch consume self {
    case .vault(var gate):
      let judgement = gate.judge(outcome, at: now)
      self = .vault(gate)
      return judgement
    case .enrolment(var gate):
      let judgement = gate.judge(outcome, at: now)
      self = .enrolment(gate)
      return judgement
    case .development(var judge):
      let judgement = judge.judge(outcome, at: now)
      self = .development(judge)
      return judgement
    case .socket(var judge):
      let judgement = judge.judge(outcome, at: now)
      self = .socket(judge)
      return judgement
    case .passwordRequest(var judge):
      let judgement = judge.judge(outcome, at: now)
      self = .passwordRequest(judge)
      return judgement
    }
  }

  package mutating func retryStorage(at now: UInt64) -> StorageRetry {
    switch consume self {
    case .vault(var gate):
      let retry = gate.retryStorage(at: now)
      self = .vault(gate)
      return retry
    case let other:
      self = other
      return .recorded(then: .none)
    }
  }

  /// The socket judge's answer connection; the vault's deferred judgement comes on
  /// the loop's timer, the others answer at once.
  package var answerDescriptor: Int32 {
    switch self {
    case .socket(let judge): return judge.answerDescriptor
    case .passwordRequest(let judge): return judge.answerDescriptor
    case .vault: return -1
    case .enrolment: return -1
    case .development: return -1
    }
  }

  package mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
    switch consume self {
    case .socket(var judge):
      let answer = judge.takeAnswer(at: now, due: due)
      self = .socket(judge)
      return answer
    case .vault(var gate):
      let answer = gate.takeAnswer(at: now, due: due)
      self = .vault(gate)
      return answer
    case .passwordRequest(var judge):
      let answer = judge.takeAnswer(at: now, due: due)
      self = .passwordRequest(judge)
      return answer
    case let other:
      self = other
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain))
    }
  }

  package mutating func isWithdrawn(at now: UInt64) -> Bool {
    switch consume self {
    case .passwordRequest(var judge):
      let withdrawn = judge.isWithdrawn(at: now)
      self = .passwordRequest(judge)
      return withdrawn
    case let other:
      self = other
      return false
    }
  }

  package mutating func cancel(at now: UInt64) -> Bool {
    switch consume self {
    case .passwordRequest(var judge):
      let cancelled = judge.cancel(at: now)
      self = .passwordRequest(judge)
      return cancelled
    case let other:
      self = other
      return false
    }
  }

  /// The lockout in force at start-up, nil when there is none: the vault's (whose
  /// `.none` is nil here, so that `lockout == nil` means the lock may be tried at once);
  /// nil for the others, which keep no record.
  package mutating func lockoutAtStart(now: UInt64) -> Lockout? {
    switch consume self {
    case .vault(var gate):
      let lockout = gate.lockoutAtStart(now: now)
      self = .vault(gate)
      return lockout == .none ? nil : lockout
    case let other:
      self = other
      return nil
    }
  }

  /// The fewest dots the vault checks, or `otherwise` for a judge that has no vault.
  package mutating func minimumDots(otherwise: Int) -> Int {
    switch consume self {
    case .vault(let gate):
      let fewest = gate.minimumDotsToCheck
      self = .vault(gate)
      return fewest
    case let other:
      self = other
      return otherwise
    }
  }

  /// Gives the vault's judgements their hooks, strike and events (`run` only), and
  /// has it show "Checking…" before it judges.
  package mutating func act(with actions: UnlockActions) {
    switch consume self {
    case .vault(var gate):
      gate.actions = actions
      gate.defersJudging = true
      self = .vault(gate)
    case let other:
      self = other
    }
  }
}
