import PatternCore

/// Everything patternlock.conf and the command line can set, as one plain value.
///
/// Pure: no file is read here. `ConfigurationFiles` feeds it the files' lines in layer
/// order and the executable feeds it options, both through `set(_:to:from:)`, so a
/// key parses the same way wherever it is written and the last layer wins. Settings
/// whose defaults belong to another module (the state directory, the Argon2id cost,
/// the seat) stay nil until set, so that module's default is the only one.
public struct Settings: Equatable, Sendable {
  /// grid, hit-radius, dpi, rotate and size (size is for `replay`; `run` takes the
  /// display's mode).
  public var layout = LayoutOptions()
  /// device: the DRM card, nil for the first with a connected display.
  public var devicePath: String?
  /// output: the connector name, nil for the first connected one.
  public var outputName: String?
  /// mode: `WxH` or `WxH@HZ` (checked for form here, matched by KMS), nil for preferred.
  public var mode: String?
  /// font: the prompt's font file, nil for the built-in choice.
  public var fontPath: String?
  /// seat: the libinput seat, nil for the default.
  public var seat: String?
  /// calibration: six numbers (checked for form here, parsed by Input), nil for none.
  public var calibration: String?
  /// min-dots: shorter patterns are refused at set-pattern and not counted at unlock.
  public var minimumDots = 4
  /// stealth: never draw the path, also not on a wrong try.
  public var stealth = false
  /// feedback-ms: how long "Wrong pattern" stays red (Android: 2000; seed 002: 500).
  public var feedbackMilliseconds = 500
  /// idle-blank-s: switch the display off (DPMS) after this long without input; 0 never.
  public var idleBlankSeconds = 0
  /// exec: the program (absolute path) and arguments that replace the process after
  /// an unlock; empty to exit with status 0 instead.
  public var exec: [String] = []
  /// state-dir: where the pattern hash and attempts live, nil for Vault's default.
  public var stateDirectory: String?
  /// enroll-first: `run` with no pattern set shows the enrolment screen first instead
  /// of refusing to start (a damaged pattern file still refuses: fail closed).
  public var enrollFirst = false
  /// argon-passes: Argon2id passes for set-pattern, nil for Vault's default.
  public var argonPasses: Int?
  /// argon-memory-mib: Argon2id memory for set-pattern, nil for Vault's default.
  public var argonMemoryMiB: Int?
  /// throttle and permanent-after: the lockout after each failure.
  public private(set) var throttle = ThrottleTable.android
  /// Where each key that was set got its value (the last layer that set it).
  public private(set) var origins: [SettingKey: SettingOrigin] = [:]

  /// The built-in defaults, before any file.
  public init() {}

  /// Parses `text` as the value of `key` and stores it.
  ///
  /// - Parameters:
  ///   - key: the key (or the option without its `--`).
  ///   - text: the value as written, already trimmed.
  ///   - origin: where it was written, kept for later messages.
  /// - Throws: `ConfigurationError.badValue` naming the origin, key and value.
  public mutating func set(_ key: SettingKey, to text: String, from origin: SettingOrigin) throws(ConfigurationError) {
    let bad = ConfigurationError.badValue(origin: origin, key: key, value: text)
    switch key {
    case .grid: layout.gridSize = try SettingValue.integer(text, in: LayoutOptions.gridSizes, else: bad)
    case .hitRadius: layout.hitRadiusPerMille = try SettingValue.integer(text, in: LayoutOptions.hitRadiusRange, else: bad)
    case .dpi:
      layout.dotsPerInch = text == "auto" ? nil : try SettingValue.integer(text, in: LayoutOptions.dpiRange, else: bad)
    case .rotate:
      guard let degrees = SettingValue.integer(text), let rotation = Rotation(degrees: degrees) else { throw bad }
      layout.rotation = rotation
    case .size:
      guard let size = SettingValue.size(text) else { throw bad }
      layout.panelWidth = size.width
      layout.panelHeight = size.height
    case .device: devicePath = try SettingValue.path(text, automatic: "auto", else: bad)
    case .output:
      guard !text.isEmpty, !text.contains(" ") else { throw bad }
      outputName = text == "auto" ? nil : text
    case .mode:
      guard text == "preferred" || SettingValue.isMode(text) else { throw bad }
      mode = text == "preferred" ? nil : text
    case .font: fontPath = try SettingValue.path(text, automatic: "default", else: bad)
    case .seat:
      guard !text.isEmpty, !text.contains(" ") else { throw bad }
      seat = text
    case .calibration:
      guard text == "none" || SettingValue.isCalibration(text) else { throw bad }
      calibration = text == "none" ? nil : text
    case .minDots: minimumDots = try SettingValue.integer(text, in: 1...(LayoutOptions.gridSizes.upperBound * LayoutOptions.gridSizes.upperBound), else: bad)
    case .stealth:
      guard let value = SettingValue.boolean(text) else { throw bad }
      stealth = value
    case .enrollFirst:
      guard let value = SettingValue.boolean(text) else { throw bad }
      enrollFirst = value
    case .feedbackMilliseconds: feedbackMilliseconds = try SettingValue.integer(text, in: 0...10_000, else: bad)
    case .idleBlankSeconds: idleBlankSeconds = try SettingValue.integer(text, in: 0...86_400, else: bad)
    case .exec:
      if text == "none" {
        exec = []
      } else {
        let words = SettingValue.words(text)
        guard let program = words.first, program.hasPrefix("/") else { throw bad }
        exec = words
      }
    case .stateDir:
      guard text.hasPrefix("/") else { throw bad }
      stateDirectory = text
    case .argonPasses: argonPasses = try SettingValue.integer(text, in: 1...100, else: bad)
    case .argonMemoryMiB: argonMemoryMiB = try SettingValue.integer(text, in: 1...4096, else: bad)
    case .throttle:
      let delays: [Int64]
      if text == "android" {
        delays = ThrottleTable.android.delaysSeconds
      } else {
        guard let parsed = SettingValue.durations(text) else { throw bad }
        delays = parsed
      }
      guard let table = ThrottleTable(delaysSeconds: delays, permanentAfter: throttle.permanentAfter) else { throw bad }
      throttle = table
    case .permanentAfter:
      let count = try SettingValue.integer(text, in: 1...1000, else: bad)
      guard let table = ThrottleTable(delaysSeconds: throttle.delaysSeconds, permanentAfter: count) else { throw bad }
      throttle = table
    }
    origins[key] = origin
  }

  /// Checks what only the settings together can say: `min-dots` within the grid.
  ///
  /// - Throws: `ConfigurationError.conflict` blamed on where `min-dots` was set.
  public func validate() throws(ConfigurationError) {
    let dots = layout.gridSize * layout.gridSize
    if minimumDots > dots {
      throw .conflict(
        origin: origins[.minDots] ?? origins[.grid] ?? .commandLine, key: .minDots,
        problem: "\(minimumDots) is more than the \(dots) dots of a \(layout.gridSize)x\(layout.gridSize) grid (lower it or raise grid)")
    }
  }

  /// A message about a value that passed its form check but was refused later (a
  /// mode the display lacks), prefixed with where the value was set.
  public func blame(_ key: SettingKey, _ problem: String) -> String {
    let origin = origins[key] ?? .commandLine
    let name = origin == .commandLine ? (key.option ?? key.name) : key.name
    return "\(origin.text): \(name): \(problem)"
  }
}
