/// A TPM's dictionary-attack protection as it stands: every wrong authorisation of an
/// object that has it (a PIN-sealed disk key, a TPM-bound pattern) is counted, and at
/// `maximum` the TPM refuses them all until the count decays, one failure every
/// `intervalSeconds`, or the lockout auth resets it. The parameters are the TPM owner's
/// (`tpm2_dictionarylockout`); the count survives power-off.
public struct DictionaryAttackState: Equatable, Sendable {
  public var failures: Int
  public var maximum: Int
  public var intervalSeconds: Int
  /// After a failed use of the lockout auth itself, the wait before it may be tried again.
  public var recoverySeconds: Int
  public var isLockedOut: Bool

  public init(failures: Int, maximum: Int, intervalSeconds: Int, recoverySeconds: Int, isLockedOut: Bool) {
    self.failures = failures
    self.maximum = maximum
    self.intervalSeconds = intervalSeconds
    self.recoverySeconds = recoverySeconds
    self.isLockedOut = isLockedOut
  }

  /// Wrong tries before the lockout: none while locked out.
  public var triesLeft: Int { isLockedOut ? 0 : max(maximum - failures, 0) }

  /// `{"failures":0,"max_failures":32,...}` for `disk status`.
  public var json: String {
    "{\"failures\":\(failures),\"max_failures\":\(maximum),\"tries_left\":\(triesLeft),\"failure_forgotten_after_s\":\(intervalSeconds),"
      + "\"lockout_recovery_s\":\(recoverySeconds),\"locked_out\":\(isLockedOut)}"
  }
}
