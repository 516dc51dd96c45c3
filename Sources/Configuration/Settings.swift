import GPIO
import PatternChoice
import PatternCore
import Raster
import Scene

/// Everything patternlock.conf and the command line can set, as one plain value: one
/// field per row of the settings table.
///
/// Pure: no file is read here. `ConfigurationFiles` feeds it the files' lines in layer
/// order and `CommandLineSettings` feeds it options, both through `set(_:to:from:)`, so a
/// key parses the same way wherever it is written and the last layer wins. Settings
/// whose defaults belong to another module (the state directory, the Argon2id cost,
/// the seat) stay nil until set, so that module's default is the only one.
public struct Settings: Equatable, Sendable {
  /// grid, hit-radius, dpi, rotate and size (size is for `replay`; `run` takes the
  /// display's mode).
  public var layout = LayoutOptions()
  /// device: the DRM card, nil for the first with a connected display.
  public var devicePath: String?
  /// output: the connector name, nil for `CardChoice`'s rule.
  public var outputName: String?
  /// backlight: the device's name, `none` for none; nil for auto.
  public var backlightName: String?
  /// brightness-min and brightness-max: the bounds, in percent of the backlight's
  /// range, that a brightness from Home Assistant is clamped to.
  public var brightnessMinimum = 10
  public var brightnessMaximum = 100
  /// mode: the size and refresh rate to ask KMS for, nil for the preferred mode.
  public var mode: ModeRequest?
  /// display-wait-s: how long `run` waits for a DRM display to appear before the fbdev
  /// fallback or its error (a driver bound after the lock started at boot).
  public var displayWaitSeconds = 20
  /// font: the prompt's font file, nil for the built-in choice.
  public var fontPath: String?
  /// language: the prompts' language, or the locale's.
  public var language = LanguageChoice.automatic
  /// seat: the libinput seat, nil for the default.
  public var seat: String?
  /// calibration: the six numbers of the matrix libinput takes, nil for none.
  public var calibration: [Float]?
  /// min-dots: shorter patterns are refused at set-pattern and not counted at unlock.
  public var minimumDots = 4
  /// stealth: never draw the path, also not on a wrong try.
  public var stealth = false
  /// show-wrong: in stealth, a wrong try's path is shown for the verdict's time.
  public var showWrong = false
  /// fade-trail: the finished part of the line fades along its length while drawing.
  public var fadeTrail = false
  /// input: whether touches drag, tap dot by dot, or either.
  public var inputMode = InputMode.both
  /// grid-motion: how the grid moves between attempts, against watchers.
  public var gridMotion = GridMotion.off
  /// feedback-ms: how long "Wrong pattern" stays red (Android: 2000; seed 002: 500).
  public var feedbackMilliseconds = 500
  /// idle-blank-s: switch the display off (DPMS) after this long without input; 0 never.
  public var idleBlankSeconds = 0
  /// dim-after-s: dim the backlight after this long without input; 0 never.
  public var dimAfterSeconds = 0
  /// dim-level: a dimmed backlight's level, in percent of its range.
  public var dimLevel = 20
  /// exec: the program (absolute path) and arguments that replace the process after
  /// an unlock; empty to exit with status 0 instead.
  public var exec: [String] = []
  /// kiosk-unit: the systemd unit an unlock starts and switches to; nil for none.
  public var kioskUnit: String?
  /// kiosk-vt: the kiosk's virtual terminal.
  public var kioskVT = 7
  /// relock-idle-s: lock again over the kiosk after this long without input; 0 never.
  public var relockIdleSeconds = 0
  /// on-unlock, on-wrong, on-lockout: programs (absolute path and arguments) started
  /// after each such judgement, without waiting for them; empty for none.
  public var onUnlock: [String] = []
  public var onWrong: [String] = []
  public var onLockout: [String] = []
  /// on-duress: the program started after an unlock by a duress credential.
  public var onDuress: [String] = []
  /// duress-opens: whether a duress credential's unlock pulses the door strike.
  public var duressOpens = true
  /// hook-user: the user the hooks run as.
  public var hookUser = "nobody"
  /// gpio-unlock: the GPIO line an unlock pulses, nil for none.
  public var doorStrike: DoorStrikeLine?
  /// door-sensor: the door contact's input line (active: the door is open).
  public var doorSensor: GPIOLineSetting?
  /// door-held-open-s: how long the door may stand open before that is reported.
  public var doorHeldOpenSeconds = 30
  /// exit-button: the request-to-exit button's input line (active: pressed).
  public var exitButton: GPIOLineSetting?
  /// remote-unlock: whether UNLOCK from the event socket (MQTT) opens the lock.
  public var remoteUnlock = false
  /// [mqtt]: the broker, its TLS files and login, and the topics.
  public var mqttHost = "localhost"
  /// port: nil for 1883, or 8883 with TLS.
  public var mqttPort: Int?
  public var mqttCAFile: String?
  public var mqttCertificateFile: String?
  public var mqttKeyFile: String?
  public var mqttUsername: String?
  public var mqttPasswordFile: String?
  public var mqttTopicPrefix = "patternlock"
  public var mqttDiscoveryPrefix = "homeassistant"
  public var mqttDeviceName = "patternlock"
  /// message: the owner's words shown under the prompt (UTF-8); empty for none.
  public var message = ""
  /// timeout-s: run `timeoutAction` after this long without input; 0 never.
  public var timeoutSeconds = 0
  /// timeout-action: what the unattended timeout does.
  public var timeoutAction = TimeoutAction.poweroff
  /// theme: the preset the colours start from.
  public var themePreset = ThemePreset.default
  /// colour-* and line-opacity: single colours put on top of the preset.
  public var themeOverrides = ThemeOverrides()
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
  /// tpm: whether set-pattern and enroll bind the pattern to a TPM 2.0.
  public var tpmUse = TPMUse.auto
  /// tpm-tcti: where the TPM is, as a tpm2-tss TCTI string.
  public var tpmTCTI = "device:/dev/tpmrm0"
  /// blocklist: how many of the most commonly chosen patterns enrolments refuse; nil
  /// (`off`) refuses none.
  public var blocklistSize: Int? = PatternBlocklist.standardSize
  /// judge-socket: where `session-lock` asks `patternlock judge` (patternlock-judge.socket).
  public var judgeSocket = "/run/patternlock/judge.sock"
  /// --config: the file read after the system's layers (read before the other options).
  public var configurationFile: String?
  /// --pattern, DEVELOPMENT ONLY: the pattern that unlocks, instead of the stored one.
  public var pattern: DotSequence?
  /// --timing: print start-to-first-flip and input-to-flip times.
  public var printsTiming = false
  /// --headless WxH: the lock drawn into memory, ended after its first frame.
  public var headlessSize: ModeRequest?
  /// replay --device: the device of the recording to replay.
  public var recordedDevice = DeviceInRecording.automatic
  /// --dump: the directory replay writes every picture to.
  public var dumpDirectory: String?
  /// --contact-sheet: the PNG replay puts every picture on.
  public var contactSheet: String?
  /// format: the frame buffer format; nil (`auto`) lets `run` take what the display
  /// prefers, and `replay` draw XRGB8888.
  public var frameFormat: PixelFormat?
  /// inject --wait: how long udev and readers get to find the new device.
  public var waitMilliseconds = 1000
  /// inject --uinput: the uinput device node.
  public var uinputPath = "/dev/uinput"
  /// replay --grid-seed: the seed a moving grid's placements are drawn from.
  public var gridSeed: UInt64 = 0
  /// log --since: the earliest entry's time as typed (checked by `log`).
  public var logSince: String?
  /// log --json: the entries as stored.
  public var logAsJSON = false
  /// credential add --role, --expires, --hours: as typed (checked by `credential`).
  public var credentialRole: String?
  public var credentialExpires: String?
  public var credentialHours: String?
  /// Where each key that was set got its value (the last layer that set it).
  public private(set) var origins: [Setting: SettingOrigin] = [:]

  /// The built-in defaults, before any file.
  public init() {}

  /// Parses `text` as the value of `key` (by the key's row of the settings table, range
  /// included) and stores it.
  ///
  /// - Parameters:
  ///   - key: the setting.
  ///   - text: the value as written, already trimmed.
  ///   - origin: where it was written, kept for later messages.
  /// - Throws: `ConfigurationError.badValue` naming the origin, key and value.
  public mutating func set(_ key: Setting, to text: String, from origin: SettingOrigin) throws(ConfigurationError) {
    guard let value = key.row.grammar.parse(text) else { throw .badValue(origin: origin, key: key, value: text) }
    try set(key, to: value, text: text, from: origin)
  }

  /// Stores a value its grammar has already read (`--exec`'s words come split).
  ///
  /// - Parameter text: the value as written, for the message if the combination with
  ///   another setting is refused (the throttle's waits and its permanent lockout).
  /// - Throws: `ConfigurationError.badValue` naming the origin, key and value.
  public mutating func set(_ key: Setting, to value: SettingValue, text: String, from origin: SettingOrigin) throws(ConfigurationError) {
    let bad = ConfigurationError.badValue(origin: origin, key: key, value: text)
    switch (key, value) {
    case (.grid, .number(let n)): layout.gridSize = n
    case (.hitRadius, .number(let n)): layout.hitRadiusPerMille = n
    case (.dpi, .optionalNumber(let n)): layout.dotsPerInch = n
    case (.rotate, .rotation(let rotation)): layout.rotation = rotation
    case (.size, .size(let width, let height)):
      layout.panelWidth = width
      layout.panelHeight = height
    case (.device, .optionalText(let path)): devicePath = path
    case (.output, .optionalText(let name)): outputName = name
    case (.backlight, .optionalText(let name)): backlightName = name
    case (.mode, .mode(let requested)): mode = requested
    case (.font, .optionalText(let path)): fontPath = path
    case (.language, .language(let choice)): language = choice
    case (.seat, .optionalText(let name)): seat = name
    case (.calibration, .calibration(let values)): calibration = values
    case (.minDots, .number(let n)): minimumDots = n
    case (.stealth, .flag(let on)): stealth = on
    case (.showWrong, .flag(let on)): showWrong = on
    case (.fadeTrail, .flag(let on)): fadeTrail = on
    case (.input, .inputMode(let mode)): inputMode = mode
    case (.gridMotion, .gridMotion(let motion)): gridMotion = motion
    case (.enrollFirst, .flag(let on)): enrollFirst = on
    case (.feedbackMilliseconds, .number(let n)): feedbackMilliseconds = n
    case (.idleBlankSeconds, .number(let n)): idleBlankSeconds = n
    case (.dimAfterSeconds, .number(let n)): dimAfterSeconds = n
    case (.dimLevel, .number(let n)): dimLevel = n
    case (.brightnessMinimum, .number(let n)): brightnessMinimum = n
    case (.brightnessMaximum, .number(let n)): brightnessMaximum = n
    case (.exec, .words(let words)): exec = words
    case (.kioskUnit, .optionalText(let name)): kioskUnit = name
    case (.kioskVT, .number(let n)): kioskVT = n
    case (.relockIdleSeconds, .number(let n)): relockIdleSeconds = n
    case (.onUnlock, .words(let words)): onUnlock = words
    case (.onWrong, .words(let words)): onWrong = words
    case (.onLockout, .words(let words)): onLockout = words
    case (.onDuress, .words(let words)): onDuress = words
    case (.duressOpens, .flag(let on)): duressOpens = on
    case (.hookUser, .optionalText(let name)): hookUser = name ?? "nobody"
    case (.gpioUnlock, .doorStrike(let line)): doorStrike = line
    case (.doorSensor, .gpioInput(let line)): doorSensor = line
    case (.doorHeldOpenSeconds, .number(let n)): doorHeldOpenSeconds = n
    case (.exitButton, .gpioInput(let line)): exitButton = line
    case (.remoteUnlock, .flag(let on)): remoteUnlock = on
    case (.mqttHost, .optionalText(let host)): mqttHost = host ?? mqttHost
    case (.mqttPort, .optionalNumber(let n)): mqttPort = n
    case (.mqttCAFile, .optionalText(let path)): mqttCAFile = path
    case (.mqttCertificateFile, .optionalText(let path)): mqttCertificateFile = path
    case (.mqttKeyFile, .optionalText(let path)): mqttKeyFile = path
    case (.mqttUsername, .optionalText(let name)): mqttUsername = name
    case (.mqttPasswordFile, .optionalText(let path)): mqttPasswordFile = path
    case (.mqttTopicPrefix, .optionalText(let prefix)): mqttTopicPrefix = prefix ?? mqttTopicPrefix
    case (.mqttDiscoveryPrefix, .optionalText(let prefix)): mqttDiscoveryPrefix = prefix ?? mqttDiscoveryPrefix
    case (.mqttDeviceName, .optionalText(let name)): mqttDeviceName = name ?? mqttDeviceName
    case (.message, .optionalText(let text)): message = text ?? ""
    case (.timeoutSeconds, .number(let n)): timeoutSeconds = n
    case (.timeoutAction, .timeoutAction(let action)): timeoutAction = action
    case (.powerButton, .flag(let on)): layout.powerButton = on
    case (.theme, .themePreset(let preset)): themePreset = preset
    case (.colourBackgroundTop, .colour(let colour)): themeOverrides.backgroundTop = colour
    case (.colourBackgroundBottom, .colour(let colour)): themeOverrides.backgroundBottom = colour
    case (.colourRing, .colour(let colour)): themeOverrides.ring = colour
    case (.colourDot, .colour(let colour)): themeOverrides.dot = colour
    case (.colourLine, .colour(let colour)): themeOverrides.line = colour
    case (.lineOpacity, .optionalNumber(let percent)): themeOverrides.lineOpacityPercent = percent
    case (.colourWrong, .colour(let colour)): themeOverrides.wrong = colour
    case (.colourSuccess, .colour(let colour)): themeOverrides.success = colour
    case (.colourText, .colour(let colour)): themeOverrides.text = colour
    case (.colourMessage, .colour(let colour)): themeOverrides.message = colour
    case (.stateDir, .optionalText(let path)): stateDirectory = path
    case (.argonPasses, .number(let n)): argonPasses = n
    case (.argonMemoryMiB, .number(let n)): argonMemoryMiB = n
    case (.throttle, .waits(let waits)):
      guard let table = ThrottleTable(delaysSeconds: waits, permanentAfter: throttle.permanentAfter) else { throw bad }
      throttle = table
    case (.permanentAfter, .number(let count)):
      guard let table = ThrottleTable(delaysSeconds: throttle.delaysSeconds, permanentAfter: count) else { throw bad }
      throttle = table
    case (.tpm, .tpmUse(let use)): tpmUse = use
    case (.tpmTCTI, .optionalText(let tcti)): tpmTCTI = tcti ?? tpmTCTI
    case (.blocklist, .optionalNumber(let size)): blocklistSize = size
    case (.judgeSocket, .optionalText(let path)): judgeSocket = path ?? judgeSocket
    case (.config, .optionalText(let path)): configurationFile = path
    case (.pattern, .dots(let dots)): pattern = dots
    case (.timing, .flag(let on)): printsTiming = on
    case (.headless, .mode(let size)): headlessSize = size
    case (.since, .optionalText(let time)): logSince = time
    case (.json, .flag(let on)): logAsJSON = on
    case (.role, .optionalText(let text)): credentialRole = text
    case (.expires, .optionalText(let text)): credentialExpires = text
    case (.hours, .optionalText(let text)): credentialHours = text
    case (.recordedDevice, .recordedDevice(let device)): recordedDevice = device
    case (.dump, .optionalText(let path)): dumpDirectory = path
    case (.contactSheet, .optionalText(let path)): contactSheet = path
    case (.format, .pixelFormat(let format)): frameFormat = format
    case (.displayWaitSeconds, .number(let n)): displayWaitSeconds = n
    case (.wait, .number(let n)): waitMilliseconds = n
    case (.uinput, .optionalText(let path)): uinputPath = path ?? uinputPath
    case (.gridSeed, .number(let n)): gridSeed = UInt64(n)
    default:
      // A row whose grammar gives another kind of value than its field takes: a
      // programming error that SettingTests finds for every row.
      preconditionFailure("setting \(key.name) cannot store this kind of value")
    }
    origins[key] = origin
  }

  /// The colours to draw with: the preset, the `[theme]` colours over it, stealth
  /// with its peek at a wrong try, and the fading line.
  public var theme: Theme {
    var theme = themeOverrides.applied(to: themePreset)
    theme.stealth = stealth
    theme.stealthPeeksWrong = showWrong
    theme.fadeTrail = fadeTrail
    return theme
  }

  /// Checks what only the settings together can say: `min-dots` within the grid,
  /// dimming before blanking, and the brightness bounds in order.
  ///
  /// - Throws: `ConfigurationError.conflict` blamed on where the later key was set.
  public func validate() throws(ConfigurationError) {
    if dimAfterSeconds > 0 && idleBlankSeconds > 0 && dimAfterSeconds >= idleBlankSeconds {
      throw .conflict(
        origin: origins[.dimAfterSeconds] ?? .commandLine, key: .dimAfterSeconds,
        problem: "\(dimAfterSeconds) is not less than idle-blank-s \(idleBlankSeconds), so the screen would blank before it dims (lower dim-after-s, raise idle-blank-s, or set dim-after-s = 0)")
    }
    if brightnessMinimum > brightnessMaximum {
      throw .conflict(
        origin: origins[.brightnessMinimum] ?? .commandLine, key: .brightnessMinimum,
        problem: "\(brightnessMinimum) is more than brightness-max \(brightnessMaximum) (lower brightness-min or raise brightness-max)")
    }
    let dots = layout.gridSize * layout.gridSize
    if minimumDots > dots {
      throw .conflict(
        origin: origins[.minDots] ?? origins[.grid] ?? .commandLine, key: .minDots,
        problem: "\(minimumDots) is more than the \(dots) dots of a \(layout.gridSize)x\(layout.gridSize) grid (lower it or raise grid)")
    }
  }

  /// A message about a value that passed its form check but was refused later (a
  /// mode the display lacks), prefixed with where the value was set.
  public func blame(_ key: Setting, _ problem: String) -> String {
    let origin = origins[key] ?? .commandLine
    let name = origin == .commandLine ? (key.option ?? key.name) : key.name
    return "\(origin.text): \(name): \(problem)"
  }
}
