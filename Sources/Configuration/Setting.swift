/// Everything patternlock can be told, on the command line or in patternlock.conf: one
/// case per row of the settings table (`SettingTable.swift`), which says for each its
/// key and section in the files, its option, its value's grammar and range, its help
/// line and the commands that take it.
///
/// A key `K` of the files is the option `--K` of the commands that read the files
/// (`grid = 4` in `[layout]` is `--grid 4`), so the two cannot drift. Keys are unique
/// across sections; the section only groups them for the reader. `throttle` and
/// `permanent-after` have no option on purpose: the unlock policy belongs to the
/// administrator's files, not to whoever types a command. The options after them
/// have no key: they make sense for one invocation only.
///
/// Alternatives rejected: unl0kr's free-form sections per theme element (we have one
/// screen); option strings matched by hand in each command (a typo there would be
/// silent, and the files and the command line would parse the same value twice).
public enum Setting: String, CaseIterable, Sendable {
  // [layout]
  case grid
  case hitRadius = "hit-radius"
  case dpi
  case rotate
  case size
  // [display]
  case device
  case output
  case backlight
  case brightnessMinimum = "brightness-min"
  case brightnessMaximum = "brightness-max"
  case mode
  case format
  case displayWaitSeconds = "display-wait-s"
  case font
  case language
  // [input]
  case seat
  case calibration
  case input
  // [lock]
  case minDots = "min-dots"
  case stealth
  case showWrong = "show-wrong"
  case fadeTrail = "fade-trail"
  case feedbackMilliseconds = "feedback-ms"
  case idleBlankSeconds = "idle-blank-s"
  case dimAfterSeconds = "dim-after-s"
  case dimLevel = "dim-level"
  case exec
  case kioskUnit = "kiosk-unit"
  case kioskVT = "kiosk-vt"
  case relockIdleSeconds = "relock-idle-s"
  case message
  case timeoutSeconds = "timeout-s"
  case timeoutAction = "timeout-action"
  case powerButton = "power-button"
  case gridMotion = "grid-motion"
  // [theme]
  case theme
  case colourBackgroundTop = "colour-background-top"
  case colourBackgroundBottom = "colour-background-bottom"
  case colourRing = "colour-ring"
  case colourDot = "colour-dot"
  case colourLine = "colour-line"
  case lineOpacity = "line-opacity"
  case colourWrong = "colour-wrong"
  case colourSuccess = "colour-success"
  case colourText = "colour-text"
  case colourMessage = "colour-message"
  // [actions]
  case onUnlock = "on-unlock"
  case onWrong = "on-wrong"
  case onLockout = "on-lockout"
  case onDuress = "on-duress"
  case duressOpens = "duress-opens"
  case hookUser = "hook-user"
  case gpioUnlock = "gpio-unlock"
  case doorSensor = "door-sensor"
  case doorHeldOpenSeconds = "door-held-open-s"
  case exitButton = "exit-button"
  case remoteUnlock = "remote-unlock"
  // [vault]
  case stateDir = "state-dir"
  case enrollFirst = "enroll-first"
  case argonPasses = "argon-passes"
  case argonMemoryMiB = "argon-memory-mib"
  case throttle
  case permanentAfter = "permanent-after"
  case tpm
  case tpmTCTI = "tpm-tcti"
  case blocklist
  case judgeSocket = "judge-socket"
  // [mqtt]
  case mqttHost = "host"
  case mqttPort = "port"
  case mqttCAFile = "ca-file"
  case mqttCertificateFile = "cert-file"
  case mqttKeyFile = "key-file"
  case mqttUsername = "username"
  case mqttPasswordFile = "password-file"
  case mqttTopicPrefix = "topic-prefix"
  case mqttDiscoveryPrefix = "discovery-prefix"
  case mqttDeviceName = "device-name"
  // Command line only.
  case config
  case pattern
  case timing
  case headless
  case recordedDevice = "recorded-device"
  case dump
  case contactSheet = "contact-sheet"
  case wait
  case uinput
  case gridSeed = "grid-seed"
  case since
  case json
  case role
  case expires
  case hours

  /// The sections of patternlock.conf, in the order the documentation lists them.
  public static let sections = ["layout", "display", "input", "lock", "theme", "actions", "vault", "mqtt"]

  /// The settings patternlock.conf takes, in table order.
  public static let fileKeys = allCases.filter { $0.section != nil }

  /// The key as written in the file, and the setting's name in messages.
  public var name: String { rawValue }

  /// The section of patternlock.conf the key belongs in; nil for command-line options.
  public var section: String? { row.section }

  /// The command-line option (`--grid`), or nil for file-only keys.
  public var option: String? { row.option }

  /// Which sources may set the key: any, the trusted system configuration when running
  /// as root (`privileged`), or it alone (`systemOnly`, the throttle).
  public var trust: SettingTrust { row.trust }

  /// What the setting accepts, for error messages.
  public var accepted: String { row.accepted }

  /// The key of patternlock.conf named `name`, in any section; nil for anything else,
  /// command-line options included.
  public init?(name: String) {
    guard let setting = Setting(rawValue: name), setting.section != nil else { return nil }
    self = setting
  }

  /// The setting `option` (such as `--grid`) stands for on `command`'s command line.
  public init?(option: String, of command: Command) {
    guard let setting = Setting.allCases.first(where: { $0.option == option && $0.row.commands.contains(command) }) else {
      return nil
    }
    self = setting
  }

  /// The commands that take `option`, in command order; empty for no such option.
  public static func commands(taking option: String) -> [Command] {
    Command.allCases.filter { command in Setting(option: option, of: command) != nil }
  }
}
