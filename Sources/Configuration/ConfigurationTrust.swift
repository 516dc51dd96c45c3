import SystemCalls

/// The trust rule as it applies to one reading of the configuration: whether the
/// privileged keys need the trusted system configuration, and whose directories and
/// files that configuration may consist of.
///
/// The system configuration is trusted when every directory from the root down and
/// the file itself belong to one of `trustedOwners` and nobody else may write them.
/// That is root alone under `/`; under a debug build's `PATTERNLOCK_CONFIG_ROOT` tree
/// also the effective user, so a test run by an ordinary user can build one (release
/// builds never read that variable).
public struct ConfigurationTrust: Equatable, Sendable {
  /// Whether a privileged key from anything but the trusted system configuration is
  /// an error (running as root, for a command that guards them).
  public var guardsPrivilegedKeys: Bool
  /// The users who may own the trusted system configuration's directories and files.
  public var trustedOwners: [UInt32]

  public init(guardsPrivilegedKeys: Bool, trustedOwners: [UInt32]) {
    self.guardsPrivilegedKeys = guardsPrivilegedKeys
    self.trustedOwners = trustedOwners
  }

  /// The rule for `command` run by `effectiveUser`, reading the layers under `root`.
  ///
  /// - Parameter isDebugBuild: whether a test root may also belong to the effective user.
  public init(command: Command, effectiveUser: UInt32, root: String, isDebugBuild: Bool = ConfigurationFiles.isDebugBuild) {
    self.init(
      guardsPrivilegedKeys: effectiveUser == 0 && command.guardsPrivilegedKeys,
      trustedOwners: ConfigurationTrust.owners(root: root, effectiveUser: effectiveUser, isDebugBuild: isDebugBuild))
  }

  /// The rule that only the throttle is guarded, for reading files outside a command
  /// (tests, tools); the owners as for this process.
  public static func throttleOnly(root: String) -> ConfigurationTrust {
    ConfigurationTrust(
      guardsPrivilegedKeys: false,
      trustedOwners: owners(root: root, effectiveUser: CurrentProcess.effectiveUser.rawValue, isDebugBuild: ConfigurationFiles.isDebugBuild))
  }

  /// Root, and under a debug build's test root also the effective user.
  static func owners(root: String, effectiveUser: UInt32, isDebugBuild: Bool) -> [UInt32] {
    isDebugBuild && root != "/" && effectiveUser != 0 ? [0, effectiveUser] : [0]
  }

  /// `root` or `root or user N`, for messages about a wrong owner.
  var ownersText: String {
    trustedOwners.map { $0 == 0 ? "root" : "user \($0)" }.joined(separator: " or ")
  }
}
