import GPIO
import Configuration
import PatternCore
import Raster
import Scene
import XCTest

/// Every row of the settings table: the forms it accepts and what they set, and forms
/// it refuses. The cases must name every `Setting`, so a new one cannot arrive untested.
final class SettingTests: XCTestCase {
  typealias Check = @Sendable (Settings) -> Bool

  static let cases: [Setting: (valid: [(String, Check)], invalid: [String])] = [
    .grid: ([("3", { $0.layout.gridSize == 3 }), ("7", { $0.layout.gridSize == 7 })], ["2", "8", "three", "", "3.0", "-3"]),
    .hitRadius: ([("100", { $0.layout.hitRadiusPerMille == 100 }), ("1000", { $0.layout.hitRadiusPerMille == 1000 })], ["99", "1001", "0.6"]),
    .dpi: ([("auto", { $0.layout.dotsPerInch == nil }), ("160", { $0.layout.dotsPerInch == 160 })], ["49", "1001", "Auto", "160dpi"]),
    .rotate: ([("0", { $0.layout.rotation == .none }), ("90", { $0.layout.rotation == .clockwise90 }), ("270", { $0.layout.rotation == .clockwise270 })], ["45", "-90", "360", "ninety"]),
    .size: ([("480x800", { $0.layout.panelWidth == 480 && $0.layout.panelHeight == 800 })], ["800", "800x", "x480", "100x480", "800X480", "800x480x2"]),
    .device: ([("auto", { $0.devicePath == nil }), ("/dev/dri/card1", { $0.devicePath == "/dev/dri/card1" })], ["card1", ""]),
    .output: ([("auto", { $0.outputName == nil }), ("DSI-1", { $0.outputName == "DSI-1" })], ["", "DSI 1"]),
    .backlight: (
      [("auto", { $0.backlightName == nil }), ("none", { $0.backlightName == "none" }), ("rpi_backlight", { $0.backlightName == "rpi_backlight" })],
      ["", "rpi backlight"]),
    .mode: ([("preferred", { $0.mode == nil }), ("800x480", { $0.mode == ModeRequest(width: 800, height: 480) }), ("1920x1080@60", { $0.mode == ModeRequest(width: 1920, height: 1080, refresh: 60) })], ["800", "0x480", "800x480@", "800x480@60@1", "800x480@-60", "123456x480", "big"]),
    .language: ([("auto", { $0.language == .automatic }), ("zh_CN", { $0.language == .fixed(.zhCN) }), ("de", { $0.language == .fixed(.de) })], ["fr", "zh", "DE", ""]),
    .font: ([("default", { $0.fontPath == nil }), ("/usr/share/fonts/x.ttf", { $0.fontPath == "/usr/share/fonts/x.ttf" })], ["x.ttf", ""]),
    .seat: ([("seat1", { $0.seat == "seat1" })], ["", "seat 1"]),
    .calibration: (
      [
        ("none", { $0.calibration == nil }), ("1 0 0 0 1 0", { $0.calibration == [1, 0, 0, 0, 1, 0] }),
        ("-1,0,1,0,-1.5,+1", { $0.calibration == [-1, 0, 1, 0, -1.5, 1] }),
        ("1.5,-0.25 +.5 0 1.0 0.125", { $0.calibration == [1.5, -0.25, 0.5, 0, 1, 0.125] }),
        ("  1  0 0\t0 1 0 ", { $0.calibration == [1, 0, 0, 0, 1, 0] }),
      ],
      ["", "1 0 0 0 1", "1 0 0 0 1 0 0", "1 0 0 0 1 x", "1 0 0 0 1 1e3", "1 0 0 0 1 --1", "1 0 0 0 1 1.2.3", "1 0 0 0 1 .", "1 0 0 0 1 1234567890"]
    ),
    .minDots: ([("1", { $0.minimumDots == 1 }), ("49", { $0.minimumDots == 49 })], ["0", "50", "four"]),
    .stealth: (
      [("yes", { $0.stealth }), ("no", { !$0.stealth }), ("true", { $0.stealth }), ("off", { !$0.stealth }), ("1", { $0.stealth }), ("0", { !$0.stealth })],
      ["Yes", "2", "y", ""]
    ),
    .showWrong: ([("no", { !$0.showWrong && !$0.theme.stealthPeeksWrong }), ("yes", { $0.showWrong && $0.theme.stealthPeeksWrong })], ["", "maybe"]),
    .fadeTrail: ([("yes", { $0.fadeTrail && $0.theme.fadeTrail }), ("no", { !$0.fadeTrail })], ["", "fade"]),
    .input: (
      [("drag", { $0.inputMode == .drag }), ("tap", { $0.inputMode == .tap }), ("both", { $0.inputMode == .both })],
      ["", "Tap", "click", "drag tap"]
    ),
    .feedbackMilliseconds: ([("0", { $0.feedbackMilliseconds == 0 }), ("2000", { $0.feedbackMilliseconds == 2000 })], ["-1", "10001", "2s"]),
    .idleBlankSeconds: ([("0", { $0.idleBlankSeconds == 0 }), ("60", { $0.idleBlankSeconds == 60 })], ["-1", "86401", "1m"]),
    .dimAfterSeconds: ([("0", { $0.dimAfterSeconds == 0 }), ("30", { $0.dimAfterSeconds == 30 })], ["-1", "86401", "30s"]),
    .dimLevel: ([("1", { $0.dimLevel == 1 }), ("100", { $0.dimLevel == 100 })], ["0", "101", "20%", ""]),
    .brightnessMinimum: ([("1", { $0.brightnessMinimum == 1 }), ("40", { $0.brightnessMinimum == 40 })], ["0", "101", "-5"]),
    .brightnessMaximum: ([("100", { $0.brightnessMaximum == 100 }), ("60", { $0.brightnessMaximum == 60 })], ["0", "101", "max"]),
    .kioskUnit: (
      [("none", { $0.kioskUnit == nil }), ("patternlock-kiosk.service", { $0.kioskUnit == "patternlock-kiosk.service" })],
      ["", "two words.service"]
    ),
    .kioskVT: ([("7", { $0.kioskVT == 7 }), ("63", { $0.kioskVT == 63 })], ["1", "64", "tty7"]),
    .relockIdleSeconds: ([("0", { $0.relockIdleSeconds == 0 }), ("300", { $0.relockIdleSeconds == 300 })], ["-1", "86401", "5m"]),
    .onUnlock: (
      [("none", { $0.onUnlock.isEmpty }), ("/usr/local/bin/notify unlock now", { $0.onUnlock == ["/usr/local/bin/notify", "unlock", "now"] })],
      ["notify", "", "./notify"]),
    .onWrong: ([("/bin/logger wrong", { $0.onWrong == ["/bin/logger", "wrong"] })], ["logger wrong"]),
    .onLockout: ([("none", { $0.onLockout.isEmpty }), ("/bin/true", { $0.onLockout == ["/bin/true"] })], ["true"]),
    .onDuress: ([("none", { $0.onDuress.isEmpty }), ("/bin/true", { $0.onDuress == ["/bin/true"] })], ["true"]),
    .duressOpens: ([("yes", { $0.duressOpens }), ("no", { !$0.duressOpens })], ["", "maybe"]),
    .hookUser: ([("door", { $0.hookUser == "door" })], ["", "door man"]),
    .gpioUnlock: (
      [
        ("none", { $0.doorStrike == nil }),
        ("gpiochip0:4", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .chipPath("/dev/gpiochip0", offset: 4))) }),
        ("/dev/gpiochip1:17:300", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .chipPath("/dev/gpiochip1", offset: 17)), milliseconds: 300) }),
        ("DOOR_STRIKE", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .named("DOOR_STRIKE"))) }),
        ("DOOR_STRIKE 250 active-low", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .named("DOOR_STRIKE"), activeLow: true), milliseconds: 250) }),
        ("pinctrl-rp1:17 300", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .chipLabel("pinctrl-rp1", offset: 17)), milliseconds: 300) }),
        ("9030000.pl061:4 active-low", { $0.doorStrike == DoorStrikeLine(line: GPIOLineSetting(address: .chipLabel("9030000.pl061", offset: 4), activeLow: true)) }),
      ],
      ["gpiochip0", "gpiochip0:", "gpiochip0:512", "gpiochip0:4:5", "gpiochip0:4:60001", "gpiochipX:1", "/dev/sda:1", "gpiochip0:4:500:1",
       "active-low", "DOOR STRIKE 500", "DOOR_STRIKE 5", "DOOR_STRIKE active-low 500", "pinctrl-rp1:", "pinctrl-rp1:x", "a:b:c:d"]),
    .doorSensor: (
      [
        ("none", { $0.doorSensor == nil }),
        ("DOOR_CONTACT", { $0.doorSensor == GPIOLineSetting(address: .named("DOOR_CONTACT")) }),
        ("9030000.pl061:3 active-low", { $0.doorSensor == GPIOLineSetting(address: .chipLabel("9030000.pl061", offset: 3), activeLow: true) }),
        ("gpiochip2:5", { $0.doorSensor == GPIOLineSetting(address: .chipPath("/dev/gpiochip2", offset: 5)) }),
      ],
      ["", "DOOR_CONTACT 500", "gpiochip2", "x:600", "active-low"]),
    .doorHeldOpenSeconds: ([("1", { $0.doorHeldOpenSeconds == 1 }), ("120", { $0.doorHeldOpenSeconds == 120 })], ["0", "86401", "30s"]),
    .exitButton: (
      [("none", { $0.exitButton == nil }), ("EXIT_BUTTON active-low", { $0.exitButton == GPIOLineSetting(address: .named("EXIT_BUTTON"), activeLow: true) })],
      ["EXIT BUTTON", "gpiochip0:4:300"]),
    .exec: (
      [("none", { $0.exec.isEmpty }), ("/usr/bin/startx -- -nocursor", { $0.exec == ["/usr/bin/startx", "--", "-nocursor"] })],
      ["startx", "", "~/bin/x"]
    ),
    .message: (
      [("Property of ACME, call 555-0100", { $0.message == "Property of ACME, call 555-0100" }), ("Zoë ☎ 42", { $0.message == "Zoë ☎ 42" }), ("", { $0.message.isEmpty })],
      [String(repeating: "x", count: 301)]
    ),
    .timeoutSeconds: ([("0", { $0.timeoutSeconds == 0 }), ("600", { $0.timeoutSeconds == 600 })], ["-1", "604801", "10m"]),
    .timeoutAction: (
      [("poweroff", { $0.timeoutAction == .poweroff }), ("reboot", { $0.timeoutAction == .reboot }), ("blank", { $0.timeoutAction == .blank }), ("none", { $0.timeoutAction == .none })],
      ["halt", "", "Poweroff"]
    ),
    .powerButton: ([("yes", { $0.layout.powerButton }), ("no", { !$0.layout.powerButton })], ["", "maybe"]),
    .theme: (
      [("default", { $0.themePreset == .default }), ("high-contrast", { $0.themePreset == .highContrast }), ("light", { $0.themePreset == .light })],
      ["", "dark", "High-Contrast", "high contrast", "#000000"]
    ),
    .colourBackgroundTop: (
      [("theme", { $0.themeOverrides.backgroundTop == nil }), ("#102030", { $0.themeOverrides.backgroundTop == Color(0x10, 0x20, 0x30) && $0.theme.backgroundTop == Color(0x10, 0x20, 0x30) })],
      ["", "102030", "#10203", "#1020304", "#10203g", "red", "#-10203"]
    ),
    .colourBackgroundBottom: ([("#aBcDeF", { $0.themeOverrides.backgroundBottom == Color(0xAB, 0xCD, 0xEF) })], ["#ABCDEF0", "Theme", "#abcdef "]),
    .colourRing: (
      [("#96A0AF78", { $0.themeOverrides.ring == Color(150, 160, 175, 120) }), ("#FFFFFF", { $0.theme.ring == Color(255, 255, 255, 255) })],
      ["#96A0AF7", "#96A0AF78F", "rgb(1,2,3)"]
    ),
    .colourDot: ([("#000000", { $0.theme.dot == .black }), ("theme", { $0.theme.dot == Theme().dot })], ["#00000x", "0x000000"]),
    .colourLine: ([("#FFD400", { $0.theme.accent == Color(255, 212, 0) })], ["#FFD40", "yellow"]),
    .lineOpacity: (
      [
        ("theme", { $0.themeOverrides.lineOpacityPercent == nil && $0.theme.lineAlpha == 128 }),
        ("50", { $0.theme.lineAlpha == 128 }), ("100", { $0.theme.lineAlpha == 255 }), ("0", { $0.theme.lineAlpha == 0 }),
      ],
      ["-1", "101", "50%", "0.5", ""]
    ),
    .colourWrong: ([("#C62828", { $0.theme.wrong == Color(198, 40, 40) })], ["#C6282", "", "none"]),
    .colourSuccess: ([("#1e8a3c", { $0.theme.success == Color(30, 138, 60) })], ["#1e8a3", "green"]),
    .colourText: ([("#FFFFFF", { $0.theme.text == .white })], ["#FFFFFFF", "white"]),
    .colourMessage: ([("#E0E0E0", { $0.theme.message == Color(224, 224, 224) })], ["#E0E0E", "grey"]),
    .stateDir: ([("/srv/lock", { $0.stateDirectory == "/srv/lock" })], ["lock", ""]),
    .enrollFirst: ([("yes", { $0.enrollFirst }), ("no", { !$0.enrollFirst }), ("on", { $0.enrollFirst })], ["maybe", "", "2"]),
    .argonPasses: ([("1", { $0.argonPasses == 1 }), ("100", { $0.argonPasses == 100 })], ["0", "101"]),
    .argonMemoryMiB: ([("1", { $0.argonMemoryMiB == 1 }), ("4096", { $0.argonMemoryMiB == 4096 })], ["0", "4097", "32M"]),
    .throttle: (
      [
        ("android", { $0.throttle == .android }),
        ("0 0 30s 2m 1h 1d", { $0.throttle.delaysSeconds == [0, 0, 30, 120, 3600, 86_400] && $0.throttle.permanentAfter == 20 }),
      ],
      ["", "0 60 30", "1w", "-1", "1m 5x"]
    ),
    .permanentAfter: ([("5", { $0.throttle.permanentAfter == 5 && $0.throttle.delaysSeconds == ThrottleTable.android.delaysSeconds })], ["0", "1001", "never"]),
    .tpm: ([("off", { $0.tpmUse == .off }), ("auto", { $0.tpmUse == .auto }), ("required", { $0.tpmUse == .required })], ["yes", "", "on"]),
    .tpmTCTI: ([("swtpm:host=127.0.0.1,port=2321", { $0.tpmTCTI == "swtpm:host=127.0.0.1,port=2321" })], [""]),
    // Widened or off, never narrowed below the standard list.
    .blocklist: (
      [("300", { $0.blocklistSize == 300 }), ("20000", { $0.blocklistSize == 20000 }), ("off", { $0.blocklistSize == nil })],
      ["299", "200", "0", "20001", "none", ""]
    ),
    // Command line only.
    .config: ([("/etc/x.conf", { $0.configurationFile == "/etc/x.conf" })], [""]),
    .pattern: ([("1-2-3-6", { $0.pattern == DotSequence([1, 2, 3, 6]) }), ("49-1", { $0.pattern == DotSequence([49, 1]) })], ["1-2-2", "0-1", "1-50", "1--2", "", "1,2"]),
    .headless: ([("320x240", { $0.headlessSize == ModeRequest(width: 320, height: 240) })], ["320", "0x240", "big"]),
    .timing: ([("yes", { $0.printsTiming }), ("no", { !$0.printsTiming })], ["", "maybe"]),
    .recordedDevice: (
      [
        ("2", { $0.recordedDevice == .number(2) }), ("007", { $0.recordedDevice == .number(7) }),
        ("EP0430M09", { $0.recordedDevice == .name("EP0430M09") }), ("2 ", { $0.recordedDevice == .name("2 ") }),
        ("-1", { $0.recordedDevice == .name("-1") }),
      ],
      ["0", "", "1234567890"]
    ),
    .dump: ([("frames", { $0.dumpDirectory == "frames" })], [""]),
    .contactSheet: ([("sheet.png", { $0.contactSheet == "sheet.png" })], [""]),
    .displayWaitSeconds: ([("0", { $0.displayWaitSeconds == 0 }), ("600", { $0.displayWaitSeconds == 600 })], ["-1", "601", "20s"]),
    .format: ([("xrgb8888", { $0.frameFormat == .xrgb8888 }), ("rgb565", { $0.frameFormat == .rgb565 }), ("auto", { $0.frameFormat == nil })], ["bgr233", "RGB565", ""]),
    .wait: ([("0", { $0.waitMilliseconds == 0 }), ("3000", { $0.waitMilliseconds == 3000 })], ["-1", "600001", "1s"]),
    .uinput: ([("/dev/uinput", { $0.uinputPath == "/dev/uinput" })], [""]),
    .gridMotion: (
      [("off", { $0.gridMotion == .off }), ("shift", { $0.gridMotion == .shift }), ("turn", { $0.gridMotion == .turn })],
      ["", "on", "Turn", "rotate", "yes"]
    ),
    .gridSeed: ([("0", { $0.gridSeed == 0 }), ("999999999", { $0.gridSeed == 999_999_999 })], ["-1", "1000000000", "x", ""]),
    // log checks the time itself (a one-line error, exit 2: AuditLogCommandTests).
    .since: ([("2026-12-01T08:00", { $0.logSince == "2026-12-01T08:00" })], [""]),
    .json: ([("yes", { $0.logAsJSON }), ("no", { !$0.logAsJSON })], ["", "maybe"]),
    // credential checks these itself (one-line errors, exit 2: CredentialCommandTests).
    .role: ([("duress", { $0.credentialRole == "duress" })], [""]),
    .expires: ([("2027-01-31T18:00", { $0.credentialExpires == "2027-01-31T18:00" })], [""]),
    .hours: ([("Mon-Fri 08:00-18:00", { $0.credentialHours == "Mon-Fri 08:00-18:00" })], [""]),
    .judgeSocket: ([("/run/user/1000/judge.sock", { $0.judgeSocket == "/run/user/1000/judge.sock" })], ["judge.sock", ""]),
    .remoteUnlock: ([("yes", { $0.remoteUnlock }), ("no", { !$0.remoteUnlock })], ["", "maybe"]),
    .mqttHost: ([("broker.local", { $0.mqttHost == "broker.local" }), ("192.168.1.10", { $0.mqttHost == "192.168.1.10" })], ["", "two words"]),
    .mqttPort: ([("1883", { $0.mqttPort == 1883 }), ("8883", { $0.mqttPort == 8883 }), ("auto", { $0.mqttPort == nil })], ["0", "65536", "mqtt"]),
    .mqttCAFile: ([("/etc/ssl/ca.pem", { $0.mqttCAFile == "/etc/ssl/ca.pem" }), ("none", { $0.mqttCAFile == nil })], ["ca.pem", ""]),
    .mqttCertificateFile: ([("/etc/ssl/door.pem", { $0.mqttCertificateFile == "/etc/ssl/door.pem" }), ("none", { $0.mqttCertificateFile == nil })], ["door.pem", ""]),
    .mqttKeyFile: ([("/etc/ssl/door.key", { $0.mqttKeyFile == "/etc/ssl/door.key" }), ("none", { $0.mqttKeyFile == nil })], ["door.key", ""]),
    .mqttUsername: ([("door", { $0.mqttUsername == "door" }), ("none", { $0.mqttUsername == nil })], ["", "two words"]),
    .mqttPasswordFile: ([("/etc/patternlock/mqtt.password", { $0.mqttPasswordFile == "/etc/patternlock/mqtt.password" }), ("none", { $0.mqttPasswordFile == nil })], ["mqtt.password", ""]),
    .mqttTopicPrefix: ([("patternlock", { $0.mqttTopicPrefix == "patternlock" }), ("site/doors", { $0.mqttTopicPrefix == "site/doors" })], ["", "a/+/b", "a/#", "/a", "a/", "a//b", "two words"]),
    .mqttDiscoveryPrefix: ([("homeassistant", { $0.mqttDiscoveryPrefix == "homeassistant" }), ("ha", { $0.mqttDiscoveryPrefix == "ha" })], ["", "ha/#"]),
    .mqttDeviceName: ([("Front door", { $0.mqttDeviceName == "Front door" })], [String(repeating: "x", count: 65)]),
  ]

  func testEveryKeyIsInTheTable() {
    for key in Setting.allCases {
      XCTAssertNotNil(SettingTests.cases[key], "no test values for key '\(key.name)'")
    }
  }

  func testEveryKeyAcceptsItsDocumentedFormsAndRecordsWhereItWasSet() throws {
    for (key, values) in SettingTests.cases {
      for (text, check) in values.valid {
        var settings = Settings()
        let origin = SettingOrigin.file(path: "/etc/patternlock.conf", line: 7)
        XCTAssertNoThrow(try settings.set(key, to: text, from: origin), "\(key.name) = \(text)")
        XCTAssertTrue(check(settings), "\(key.name) = \(text) set the wrong value")
        XCTAssertEqual(settings.origins[key], origin, "\(key.name)")
      }
    }
  }

  func testEveryKeyRefusesBadValuesNamingFileLineKeyAndValue() {
    for (key, values) in SettingTests.cases {
      for text in values.invalid {
        var settings = Settings()
        let origin = SettingOrigin.file(path: "/etc/patternlock.conf.d/10-x.conf", line: 12)
        XCTAssertThrowsError(try settings.set(key, to: text, from: origin), "\(key.name) = '\(text)' was accepted") { error in
          XCTAssertEqual(error as? ConfigurationError, .badValue(origin: origin, key: key, value: text))
          let message = (error as? ConfigurationError)?.message ?? ""
          XCTAssertTrue(message.hasPrefix("/etc/patternlock.conf.d/10-x.conf:12: \(key.name) cannot be '\(text)': it takes "), message)
        }
        XCTAssertEqual(settings, Settings(), "a refused \(key.name) changed the settings")
      }
    }
  }

  func testCommandLineErrorsNameTheOption() {
    var settings = Settings()
    XCTAssertThrowsError(try settings.set(.grid, to: "9", from: .commandLine)) { error in
      XCTAssertEqual((error as? ConfigurationError)?.message, "command line: --grid cannot be '9': it takes a whole number from 3 to 7")
    }
  }

  func testOptionForKeyIsDashDashKeyExceptThePolicyKeys() {
    for key in Setting.fileKeys {
      switch key {
      case .throttle, .permanentAfter, .tpm, .tpmTCTI, .remoteUnlock, .blocklist, .brightnessMinimum, .brightnessMaximum:
        XCTAssertNil(key.option)
        XCTAssertEqual(key.trust, .systemOnly)
        XCTAssertTrue(key.row.commands.isEmpty)
      default:
        XCTAssertEqual(key.option, "--" + key.name)
        XCTAssertNotEqual(key.trust, .systemOnly)
        for command in key.row.commands { XCTAssertEqual(Setting(option: "--" + key.name, of: command), key) }
      }
      XCTAssertTrue(Setting.sections.contains(key.section ?? ""))
      XCTAssertEqual(Setting(name: key.name), key)
    }
  }

  func testCommandLineOnlyOptionsAreNoKeysOfTheFiles() {
    for setting in Setting.allCases where setting.section == nil {
      XCTAssertNil(Setting(name: setting.name), "\(setting.name) must not be read from patternlock.conf")
      XCTAssertNotNil(setting.option)
      XCTAssertFalse(setting.row.commands.isEmpty)
    }
  }

  func testEachOptionMeansOneSettingPerCommand() {
    for command in Command.allCases {
      var seen: Set<String> = []
      for setting in Setting.allCases where setting.row.commands.contains(command) {
        guard let option = setting.option else { continue }
        XCTAssertTrue(seen.insert(option).inserted, "\(option) means two settings for \(command.name)")
      }
    }
    XCTAssertEqual(Setting(option: "--device", of: .run), .device)
    XCTAssertEqual(Setting(option: "--device", of: .replay), .recordedDevice)
    XCTAssertNil(Setting(option: "--device", of: .check))
  }

  func testThrottleAndPermanentAfterCombineInEitherOrder() throws {
    var a = Settings()
    try a.set(.throttle, to: "0 1m", from: .commandLine)
    try a.set(.permanentAfter, to: "3", from: .commandLine)
    var b = Settings()
    try b.set(.permanentAfter, to: "3", from: .commandLine)
    try b.set(.throttle, to: "0 1m", from: .commandLine)
    XCTAssertEqual(a.throttle, b.throttle)
    XCTAssertEqual(a.throttle.lockout(afterFailures: 2), .seconds(60))
    XCTAssertEqual(a.throttle.lockout(afterFailures: 3), .permanent)
  }

  func testMinDotsAboveTheGridIsAConflictBlamedOnMinDots() throws {
    var settings = Settings()
    try settings.set(.minDots, to: "10", from: .file(path: "/etc/patternlock.conf", line: 4))
    XCTAssertThrowsError(try settings.validate()) { error in
      XCTAssertEqual((error as? ConfigurationError)?.message,
        "/etc/patternlock.conf:4: min-dots: 10 is more than the 9 dots of a 3x3 grid (lower it or raise grid)")
    }
    try settings.set(.grid, to: "4", from: .commandLine)
    XCTAssertNoThrow(try settings.validate())
  }
}

/// `theme =` and the colour keys together.
final class ThemeSettingTests: XCTestCase {
  func testTheBuiltInThemeIsTheSeedsLook() {
    XCTAssertEqual(Settings().theme, Theme())
    XCTAssertEqual(Settings().theme, Theme(preset: .default))
  }

  func testColoursGoOnTopOfWhicheverPresetWinsInEitherOrder() throws {
    var a = Settings()
    try a.set(.colourLine, to: "#112233", from: .file(path: "/etc/patternlock.conf", line: 3))
    try a.set(.theme, to: "light", from: .commandLine)
    var b = Settings()
    try b.set(.theme, to: "light", from: .commandLine)
    try b.set(.colourLine, to: "#112233", from: .file(path: "/etc/patternlock.conf", line: 3))
    XCTAssertEqual(a.theme, b.theme)
    var expected = Theme(preset: .light)
    expected.accent = Color(0x11, 0x22, 0x33)
    XCTAssertEqual(a.theme, expected)
  }

  func testThemeWordGivesThePresetsColourBack() throws {
    var settings = Settings()
    try settings.set(.theme, to: "high-contrast", from: .commandLine)
    try settings.set(.colourRing, to: "#102030", from: .commandLine)
    try settings.set(.lineOpacity, to: "30", from: .commandLine)
    try settings.set(.colourRing, to: "theme", from: .commandLine)
    try settings.set(.lineOpacity, to: "theme", from: .commandLine)
    XCTAssertEqual(settings.theme, Theme(preset: .highContrast))
  }

  func testStealthStaysWithAnyPreset() throws {
    var settings = Settings()
    try settings.set(.stealth, to: "yes", from: .commandLine)
    try settings.set(.theme, to: "light", from: .commandLine)
    XCTAssertTrue(settings.theme.stealth)
  }
}
