import PatternCore
import SystemCalls

/// Why the configuration or the command line cannot be used. Every case names the file
/// and line (or the command line) and the key or option, and each message says what is
/// accepted.
public enum ConfigurationError: DescribedError, Equatable {
  /// The file (or `conf.d` directory) exists but cannot be read; `call` is the failing
  /// system call.
  case cannotRead(path: String, call: String, errno: Errno)
  /// `--config` names a file that does not exist.
  case missing(path: String)
  /// The path is a directory, device or pipe, not a file.
  case notARegularFile(path: String, kind: String)
  /// Larger than `ConfigurationFiles.maximumBytes`.
  case tooLarge(path: String, bytes: Int64)
  /// `conf.d` holds more `*.conf` files than `ConfigurationFiles.maximumDropIns`.
  case tooManyDropIns(path: String, count: Int, maximum: Int)
  /// A NUL byte: not a text file.
  case notText(path: String, line: Int)
  /// A line longer than libinih's buffer (it would split it silently).
  case lineTooLong(path: String, line: Int, limit: Int)
  /// libinih could not parse the line (no `=`, no closing `]`).
  case syntax(path: String, line: Int)
  /// A `[section]` this program does not know.
  case unknownSection(path: String, line: Int, section: String)
  /// A key before any `[section]`.
  case keyOutsideSection(path: String, line: Int, key: String)
  /// A key that does not exist at all.
  case unknownKey(path: String, line: Int, section: String, key: String)
  /// A key that exists, in another section.
  case wrongSection(path: String, line: Int, section: String, key: Setting)
  /// The same key twice in one file (also an indented line, which INI reads as a
  /// continuation of the key before it).
  case duplicateKey(path: String, line: Int, key: Setting, firstLine: Int)
  /// A value the key does not accept.
  case badValue(origin: SettingOrigin, key: Setting, value: String)
  /// A value that is fine alone but not with another setting; `problem` says why.
  case conflict(origin: SettingOrigin, key: Setting, problem: String)
  /// An option the settings table does not have for any command.
  case unknownOption(command: Command, argument: String)
  /// An option of other commands than this one.
  case optionOfOtherCommands(command: Command, option: String, commands: [Command])
  /// An option that takes a value, last on the command line.
  case missingValue(option: String)
  /// A key that only the root-owned system configuration may set (the throttle) in a
  /// file that is not part of it; `why` says what the file is.
  case systemOnlyKey(path: String, line: Int, key: Setting, why: String)
  /// A privileged key (one that acts with root's privileges) in a file that is not the
  /// trusted system configuration, read as root; `why` says what the file is.
  case privilegedKey(path: String, line: Int, key: Setting, why: String)
  /// A privileged key's option on the command line, read as root.
  case privilegedOption(option: String, key: Setting)

  /// One line for the user: where, what, and what to write instead.
  public var message: String {
    switch self {
    case .cannotRead(let path, let call, let errno):
      return "cannot read configuration \(path): \(call): \(errno.text) (check its permissions)"
    case .missing(let path):
      return "configuration file \(path) does not exist (check the path given to --config)"
    case .notARegularFile(let path, let kind):
      return "configuration \(path) is \(kind), not a file (remove it or point --config at a file)"
    case .tooLarge(let path, let bytes):
      return "configuration \(path) is \(bytes) bytes, more than the \(ConfigurationFiles.maximumBytes) a configuration may have (is it the right file?)"
    case .tooManyDropIns(let path, let count, let maximum):
      return "configuration directory \(path) holds \(count) .conf files, more than the \(maximum) patternlock reads (merge them into fewer files)"
    case .notText(let path, let line):
      return "\(path):\(line): contains a NUL byte: not a text file (is it the right file?)"
    case .lineTooLong(let path, let line, let limit):
      return "\(path):\(line): line is longer than \(limit) characters (shorten it)"
    case .syntax(let path, let line):
      return "\(path):\(line): cannot parse this line: write 'key = value', '[section]' or a comment starting with '#' or ';'"
    case .unknownSection(let path, let line, let section):
      return "\(path):\(line): unknown section [\(section)] (sections are \(Setting.sections.map { "[\($0)]" }.joined(separator: ", ")); see patternlock.conf(5))"
    case .keyOutsideSection(let path, let line, let key):
      let hint = Setting(name: key).map { " (put it under [\($0.section ?? "")])" } ?? " (see patternlock.conf(5))"
      return "\(path):\(line): key '\(key)' is outside any section\(hint)"
    case .unknownKey(let path, let line, let section, let key):
      let keys = Setting.fileKeys.filter { $0.section == section }.map { $0.name }.joined(separator: ", ")
      return "\(path):\(line): unknown key '\(key)' in [\(section)] (keys there: \(keys); see patternlock.conf(5))"
    case .wrongSection(let path, let line, let section, let key):
      return "\(path):\(line): key '\(key.name)' belongs in [\(key.section ?? "")], not [\(section)] (move it)"
    case .duplicateKey(let path, let line, let key, let firstLine):
      return "\(path):\(line): key '\(key.name)' is already set on line \(firstLine) (remove one; an indented line continues the key above it)"
    case .badValue(let origin, let key, let value):
      return "\(origin.text): \(ConfigurationError.name(key, origin)) cannot be '\(value)': it takes \(key.accepted)"
    case .conflict(let origin, let key, let problem):
      return "\(origin.text): \(ConfigurationError.name(key, origin)): \(problem)"
    case .unknownOption(let command, let argument):
      return "\(command.name): unknown option '\(argument)' (try 'patternlock --help')"
    case .optionOfOtherCommands(let command, let option, let commands):
      let names = commands.map { $0.name }
      let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
      return "\(command.name): \(option) is an option of \(list), not of \(command.name) (try 'patternlock --help')"
    case .missingValue(let option):
      return "option \(option) needs a value (see 'patternlock --help')"
    case .systemOnlyKey(let path, let line, let key, let why):
      return "\(path):\(line): '\(key.name)' is set only in the root-owned system configuration (/usr/share/patternlock/patternlock.conf, /etc/patternlock.conf, /etc/patternlock.conf.d/*.conf), and \(why) (remove the line here)"
    case .privilegedKey(let path, let line, let key, let why):
      return "\(path):\(line): '\(key.name)' acts as root, so running as root it is read only from the root-owned system configuration (\(ConfigurationError.systemFiles)), and \(why) (move the line to /etc/patternlock.conf, owned by root and writable only by root)"
    case .privilegedOption(let option, let key):
      return "command line: \(option) acts as root, so running as root it is read only from the root-owned system configuration (put '\(key.name) = ...' under [\(key.section ?? "")] in /etc/patternlock.conf, owned by root and writable only by root)"
    }
  }

  /// The trusted system configuration's files, as messages list them.
  static let systemFiles = "/usr/share/patternlock/patternlock.conf, /etc/patternlock.conf, /etc/patternlock.conf.d/*.conf"

  /// The key as the user wrote it: `--grid` on the command line, `grid` in a file.
  private static func name(_ key: Setting, _ origin: SettingOrigin) -> String {
    origin == .commandLine ? (key.option ?? key.name) : key.name
  }
}
