import PatternCore

/// Every key patternlock.conf accepts, the section it belongs in, and the command-line
/// option that overrides it.
///
/// The mapping is one rule, so it cannot drift: key `K` in any section is option `--K`
/// (`grid = 4` in `[layout]` is `--grid 4`). Keys are unique across sections; the
/// section only groups them for the reader. `throttle` and `permanent-after` have no
/// option on purpose: the unlock policy belongs to the administrator's files, not to
/// whoever types a command.
///
/// Alternatives rejected: unl0kr's free-form sections per theme element (we have one
/// screen); a key table as strings in each command (a typo there would be silent).
public enum SettingKey: String, CaseIterable, Sendable {
  // [layout]
  case grid
  case hitRadius = "hit-radius"
  case dpi
  case rotate
  case size
  // [display]
  case device
  case output
  case mode
  case font
  // [input]
  case seat
  case calibration
  // [lock]
  case minDots = "min-dots"
  case stealth
  case feedbackMilliseconds = "feedback-ms"
  case idleBlankSeconds = "idle-blank-s"
  case exec
  // [vault]
  case stateDir = "state-dir"
  case enrollFirst = "enroll-first"
  case argonPasses = "argon-passes"
  case argonMemoryMiB = "argon-memory-mib"
  case throttle
  case permanentAfter = "permanent-after"

  /// The sections, in the order the documentation lists them.
  public static let sections = ["layout", "display", "input", "lock", "vault"]

  /// The section the key belongs in.
  public var section: String {
    switch self {
    case .grid, .hitRadius, .dpi, .rotate, .size: return "layout"
    case .device, .output, .mode, .font: return "display"
    case .seat, .calibration: return "input"
    case .minDots, .stealth, .feedbackMilliseconds, .idleBlankSeconds, .exec: return "lock"
    case .stateDir, .enrollFirst, .argonPasses, .argonMemoryMiB, .throttle, .permanentAfter: return "vault"
    }
  }

  /// The key as written in the file.
  public var name: String { rawValue }

  /// The overriding command-line option, or nil for file-only keys.
  /// Whether only the root-owned system configuration may set the key: the throttle,
  /// which whoever runs `check` or `run` must not be able to loosen.
  public var isSystemOnly: Bool { self == .throttle || self == .permanentAfter }

  public var option: String? {
    switch self {
    case .throttle, .permanentAfter: return nil
    default: return "--" + rawValue
    }
  }

  /// The key named `name`, in any section.
  public init?(name: String) { self.init(rawValue: name) }

  /// The key for a command-line option such as `--grid`, or nil.
  public init?(option: String) {
    guard option.hasPrefix("--"), let key = SettingKey(rawValue: String(option.dropFirst(2))), key.option != nil else {
      return nil
    }
    self = key
  }

  /// What the key accepts, for error messages.
  public var accepted: String {
    switch self {
    case .grid: return "a whole number from \(LayoutOptions.gridSizes.lowerBound) to \(LayoutOptions.gridSizes.upperBound)"
    case .hitRadius: return "thousandths of half a cell, \(LayoutOptions.hitRadiusRange.lowerBound) to \(LayoutOptions.hitRadiusRange.upperBound)"
    case .dpi: return "'auto' or pixels per inch, \(LayoutOptions.dpiRange.lowerBound) to \(LayoutOptions.dpiRange.upperBound)"
    case .rotate: return "0, 90, 180 or 270"
    case .size: return "WIDTHxHEIGHT in pixels, each \(LayoutOptions.minimumSide) to \(LayoutOptions.maximumSide), such as 800x480"
    case .device: return "'auto' or the path of a DRM card, such as /dev/dri/card1"
    case .output: return "'auto' or a connector name, such as DSI-1 or HDMI-A-1"
    case .mode: return "'preferred', WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480@60"
    case .font: return "'default' or the absolute path of a TrueType or OpenType font"
    case .seat: return "a libinput seat name, such as seat0"
    case .calibration: return "'none' or six numbers, as LIBINPUT_CALIBRATION_MATRIX: \"a b c d e f\""
    case .minDots: return "a whole number from 1 to 49 (at most the dots of the grid)"
    case .stealth: return "yes or no (also true/false, on/off, 1/0)"
    case .feedbackMilliseconds: return "milliseconds from 0 to 10000"
    case .idleBlankSeconds: return "seconds from 0 (never blank) to 86400"
    case .exec: return "'none' or an absolute program path and its arguments, separated by spaces"
    case .stateDir: return "an absolute directory path"
    case .enrollFirst: return "yes or no (also true/false, on/off, 1/0)"
    case .argonPasses: return "a whole number from 1 to 100"
    case .argonMemoryMiB: return "MiB from 1 to 4096"
    case .throttle: return "'android' or waits after failure 1, 2, 3..., never decreasing, each seconds or with s, m, h or d, such as 0 0 0 0 1m 5m"
    case .permanentAfter: return "the failure count from which only reset-attempts helps, 1 to 1000"
    }
  }
}
