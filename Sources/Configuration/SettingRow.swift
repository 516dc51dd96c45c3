/// One row of the settings table: everything the program knows about one setting, so
/// that parsing (files and command line), error messages, `--help` and the
/// documentation test all read the same facts.
public struct SettingRow: Sendable {
  /// The `[section]` of patternlock.conf the key belongs in; nil for an option the
  /// files do not take.
  public let section: String?
  /// The command-line option (`--grid`); nil for a key only the files set.
  public let option: String?
  /// The value in the help text (`N`, `WxH`); empty for a flag.
  public let placeholder: String
  /// How the value is written and the range it must be in.
  public let grammar: ValueGrammar
  /// What the value may be, completing "it takes ..." in error messages.
  public let accepted: String
  /// The option's line in `--help`.
  public let help: String
  /// The commands whose command line takes the option.
  public let commands: [Command]
  /// Which sources may set the key (the trust rule, docs/security.md).
  public let trust: SettingTrust
  /// Whether the setting shapes the lock screen: it is read into the one screen
  /// configuration every lock screen is made from (`ScreenConfiguration`), and a test
  /// fails when a marked setting does not reach it.
  public let isScreenSetting: Bool

  init(
    section: String?, option: String?, placeholder: String = "", grammar: ValueGrammar, accepted: String,
    help: String = "", commands: [Command] = [], trust: SettingTrust = .anySource, screen: Bool = false
  ) {
    self.section = section
    self.option = option
    self.placeholder = placeholder
    self.grammar = grammar
    self.accepted = accepted
    self.help = help
    self.commands = commands
    self.trust = trust
    self.isScreenSetting = screen
  }
}
