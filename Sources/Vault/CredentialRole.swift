/// What a credential is for. `admin`, `user` and `guest` unlock alike: the role is
/// told to the hooks and the audit log, for the installer's own rules. `duress`
/// unlocks as they do, to whoever watches, and also raises the silent alarm.
public enum CredentialRole: String, CaseIterable, Sendable {
  case admin
  case user
  case guest
  case duress

  /// The roles as `--role` lists them in messages.
  public static let names = "admin, user, guest or duress"
}
