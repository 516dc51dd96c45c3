/// Whether `set-pattern` and `enroll` bind the pattern to a TPM 2.0 (`[vault] tpm`).
/// Judging never looks at this: a pattern bound to a TPM is judged only by it, and a
/// hashed one only in software, whatever the setting says later.
public enum TPMUse: String, Sendable, CaseIterable {
  /// Never: the pattern is hashed (Argon2id) in the state directory.
  case off
  /// When the TPM is there (the device of a `device:` TCTI exists, or another TCTI
  /// is named): the default.
  case auto
  /// Always: enrolment fails without a working TPM.
  case required

  public init?(name: String) { self.init(rawValue: name) }
  public var name: String { rawValue }
}
