import PatternCore

/// Refusing input: lockouts with their countdown, and the storage error that refuses
/// every attempt until one can be recorded.
extension LockScreenController {
  /// Whether the caller should try the storage again now (see `refuseUntilStorageWritable`).
  public func storageRetryDue(at now: UInt64) -> Bool {
    guard case .storageError(let retryAt, _) = refusal, feedbackEnds == nil else { return false }
    return now >= retryAt
  }

  /// Ends a storage error once a write succeeded: the screen returns to the prompt, or
  /// to `then`, the lockout the recorded attempts impose.
  public mutating func endStorageError(then next: Lockout, at now: UInt64) {
    guard case .storageError = refusal else { return }
    refusal = nil
    state = LockScreenState(prompt: idlePrompt, pointer: state.pointer, grid: grid)
    lockOut(next, at: now)
  }

  /// What is left of the lockout at `now`, for reports: the whole seconds of a
  /// countdown (rounded up, as shown), permanent for a lock until reset and for a
  /// storage error (nothing is judged until an administrator acts), none otherwise.
  public func lockout(at now: UInt64) -> Lockout {
    switch refusal {
    case .until(let ends): return ends > now ? .seconds(Int64((ends - now + 999_999) / 1_000_000)) : .none
    case .permanent, .storageError: return .permanent
    case nil: return .none
    }
  }

  /// Refuses input until `lockout` ends, counted from `now`, showing a countdown (after
  /// any verdict on screen has had its time). `.none` changes nothing.
  public mutating func lockOut(_ lockout: Lockout, at now: UInt64) {
    switch lockout {
    case .none: return
    case .permanent: refuse(.permanent, at: now)
    case .seconds: refuse(.until(lockout.end(from: now) ?? now), at: now)
    }
  }

  /// Refuses input because the last attempt could not be recorded or judged:
  /// `prompt` ("Storage error", or the TPM's) until a retry succeeds; the caller tries
  /// again from `retryAt`. Without a prompt, a failed retry keeps the cause on screen.
  public mutating func refuseUntilStorageWritable(retryAt: UInt64, prompt: PromptText? = nil, at now: UInt64) {
    var cause = prompt ?? .storageError
    if prompt == nil, case .storageError(_, let shown) = refusal { cause = shown }
    refuse(.storageError(retryAt: retryAt, prompt: cause), at: now)
  }

  mutating func refuse(_ refusal: Refusal, at now: UInt64) {
    self.refusal = refusal
    tracker.reset()
    keyed.removeAll()
    advance(to: now)
  }
}
