import LockEvents
/// A credential besides the owner's pattern: a name, a role, when it may unlock, and
/// its verifier, a keyed BLAKE2b of the Argon2id output its pattern gives with the
/// owner's salt and cost (`CredentialFile`). Nothing here is the pattern, and testing a
/// guess against the verifier costs that Argon2id run first.
public struct Credential: Equatable, Sendable {
  /// The most bytes a name has.
  public static let maximumNameBytes = 32
  /// What a name may be, for messages.
  public static let acceptedName = "1 to 32 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit"

  public let name: String
  public let role: CredentialRole
  /// The local time (`YYYY-MM-DDTHH:MM`, as `--expires` took it) from which it no
  /// longer unlocks; nil for never.
  public let expires: String?
  public let hours: CredentialHours?
  let verifier: [UInt8]

  init(name: String, role: CredentialRole, expires: String?, hours: CredentialHours?, verifier: [UInt8]) {
    self.name = name
    self.role = role
    self.expires = expires
    self.hours = hours
    self.verifier = verifier
  }

  /// Whether `name` is a credential's name (`owner` is, for the owner's pattern).
  public static func isValidName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumNameBytes else { return false }
    for (index, byte) in bytes.enumerated() {
      let letterOrDigit = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      let punctuation = byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      guard letterOrDigit || (index > 0 && punctuation) else { return false }
    }
    return true
  }

  /// Why the credential may not unlock at `wall` (seconds since 1970): `expired` or
  /// `outside-hours`; nil when it may.
  public func refusal(atWall wall: Int64) -> String? {
    let local = LocalTime.seconds(atWall: wall)
    if let expires, let end = UTCTime.parse(expires), local >= end { return "expired" }
    if let hours, !hours.allows(local: local) { return "outside-hours" }
    return nil
  }

  /// One JSON object for `credential list`: name, role, expiry, hours; never the verifier.
  public var jsonLine: String {
    var line = "{\"name\":\"\(AuditEntry.escaped(name))\",\"role\":\"\(role.rawValue)\""
    line += ",\"expires\":" + (expires.map { "\"\($0)\"" } ?? "null")
    line += ",\"hours\":" + (hours.map { "\"\($0.text)\"" } ?? "null")
    return line + "}"
  }
}
