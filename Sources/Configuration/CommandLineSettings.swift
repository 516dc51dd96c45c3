/// A command's arguments read against the settings table: the configuration files
/// first, then each option over them, each value parsed by its row's grammar.
///
/// Options are `--name value`, `--name=value`, or for a yes/no setting `--name` alone
/// (yes), `--name no` or `--name=no`; `--exec` takes the rest of the line. Anything not starting
/// with `-` (and `-` itself) is an operand, such as replay's FILE; the command says
/// how many it takes. `--config` may stand anywhere: the file is read before any
/// other option is applied, so every option overrides every file.
public struct CommandLineSettings {
  /// The configuration files' settings with the options applied over them.
  public var settings: Settings
  /// The arguments that are not options, in order.
  public var operands: [String]

  /// Reads `arguments` (those after the command's name) for `command`.
  ///
  /// - Parameters:
  ///   - configurationRoot: the root of the system layers (normally `/`); the files are
  ///     read only for commands that take `--config`.
  ///   - effectiveUser: who runs the command: as root (0), a privileged key's option is
  ///     refused and such keys come only from the trusted system configuration.
  /// - Throws: `ConfigurationError` for an unknown option, a missing or bad value, a
  ///   privileged option as root, a bad file, or a conflict between settings
  ///   (`Settings.validate`).
  public init(
    _ arguments: [String], for command: Command, configurationRoot: String, effectiveUser: UInt32
  ) throws(ConfigurationError) {
    let trust = ConfigurationTrust(command: command, effectiveUser: effectiveUser, root: configurationRoot)
    var given: [GivenOption] = []
    operands = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-"), argument != "-" else {
        operands.append(argument)
        continue
      }
      let (option, inline) = CommandLineSettings.split(argument)
      guard let setting = Setting(option: option, of: command) else {
        let others = Setting.commands(taking: option)
        if others.isEmpty { throw .unknownOption(command: command, argument: argument) }
        throw .optionOfOtherCommands(command: command, option: option, commands: others)
      }
      if trust.guardsPrivilegedKeys && setting.trust != .anySource {
        throw .privilegedOption(option: option, key: setting)
      }
      switch setting.row.grammar {
      case .yesOrNo:
        // `--fade-trail yes` as well as `--fade-trail` and `--fade-trail=yes`: a word
        // of yes or no after the option is its value, never an operand.
        if inline == nil, index < arguments.count, ValueGrammar.isYesOrNoWord(arguments[index]) {
          given.append(GivenOption(setting: setting, text: arguments[index]))
          index += 1
        } else {
          given.append(GivenOption(setting: setting, text: inline ?? "yes"))
        }
      case .program:
        let words = (inline.map { [$0] } ?? []) + arguments[index...]
        index = arguments.count
        given.append(GivenOption(setting: setting, text: words.joined(separator: " "), words: words))
      default:
        if let inline {
          given.append(GivenOption(setting: setting, text: inline))
        } else {
          guard index < arguments.count else { throw .missingValue(option: option) }
          given.append(GivenOption(setting: setting, text: arguments[index]))
          index += 1
        }
      }
    }

    settings = Settings()
    if command.readsConfiguration {
      let extra = given.last(where: { $0.setting == .config })?.text
      settings = try ConfigurationFiles.load(root: configurationRoot, extra: extra, trust: trust)
    }
    for option in given {
      if let words = option.words {
        guard let value = ValueGrammar.program(words) else {
          throw .badValue(origin: .commandLine, key: option.setting, value: option.text)
        }
        try settings.set(option.setting, to: value, text: option.text, from: .commandLine)
      } else {
        try settings.set(option.setting, to: option.text, from: .commandLine)
      }
    }
    try settings.validate()
  }

  /// Splits `--name=value` into its parts.
  static func split(_ argument: String) -> (option: String, inline: String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// An option as written, applied once the files have been read.
  private struct GivenOption {
    let setting: Setting
    let text: String
    /// `--exec`'s words, which are not split again.
    var words: [String]? = nil
  }
}
