import LockEvents
/// Which credential a pattern was: its name and role, for the hooks, `check`'s line
/// and the door (a duress credential may leave it shut). Never anything of the pattern.
public struct JudgedCredential: Equatable, Sendable {
  public let name: String
  public let role: CredentialRole

  public init(name: String, role: CredentialRole) {
    self.name = name
    self.role = role
  }

  /// The owner's pattern, set with set-pattern or enroll.
  public static let owner = JudgedCredential(name: AuditEntry.owner, role: .admin)
}
