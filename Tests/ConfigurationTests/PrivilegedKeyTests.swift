import CommandTestSupport
import Configuration
import Foundation
import XCTest

/// The trust rule's table: every setting is classified here by hand, so a new one
/// cannot be added without deciding whether it acts with root's privileges; and each
/// privileged key, given as root from every source but the trusted system
/// configuration, is refused naming the file and line or the option.
final class PrivilegedKeyTests: XCTestCase {
  /// Every setting's trust, written out (docs/security.md, "The trust rule", says why).
  static let classification: [Setting: SettingTrust] = {
    var table: [Setting: SettingTrust] = [:]
    for key: Setting in [
      .exec, .kioskUnit, .kioskVT, .relockIdleSeconds, .timeoutSeconds, .timeoutAction, .powerButton,
      .onUnlock, .onWrong, .onLockout, .onDuress, .duressOpens, .hookUser, .gpioUnlock, .doorSensor, .doorHeldOpenSeconds, .exitButton,
    ] { table[key] = .privileged }
    for key: Setting in [.throttle, .permanentAfter, .tpm, .tpmTCTI, .remoteUnlock, .blocklist, .brightnessMinimum, .brightnessMaximum] {
      table[key] = .systemOnly
    }
    for key: Setting in [
      .grid, .hitRadius, .dpi, .rotate, .size, .device, .output, .backlight, .mode, .format, .displayWaitSeconds, .font, .language, .seat, .calibration,
      .input, .minDots, .stealth, .showWrong, .fadeTrail, .gridMotion, .gridSeed, .feedbackMilliseconds, .idleBlankSeconds, .dimAfterSeconds, .dimLevel, .message, .theme,
      .colourBackgroundTop, .colourBackgroundBottom, .colourRing, .colourDot, .colourLine, .lineOpacity, .colourWrong,
      .colourSuccess, .colourText, .colourMessage, .stateDir, .enrollFirst, .argonPasses, .argonMemoryMiB, .config,
      .pattern, .timing, .headless, .recordedDevice, .dump, .contactSheet, .wait, .uinput, .since, .json, .role, .expires, .hours, .judgeSocket,
      // patternlock mqtt's, which never runs as root and never acts on the lock itself.
      .mqttHost, .mqttPort, .mqttCAFile, .mqttCertificateFile, .mqttKeyFile, .mqttUsername, .mqttPasswordFile, .mqttTopicPrefix,
      .mqttDiscoveryPrefix, .mqttDeviceName,
    ] { table[key] = .anySource }
    return table
  }()

  /// A value each privileged key accepts.
  static let sampleValues: [Setting: String] = [
    .exec: "/bin/true", .kioskUnit: "patternlock-kiosk.service", .kioskVT: "7", .relockIdleSeconds: "60",
    .timeoutSeconds: "60", .timeoutAction: "reboot", .powerButton: "yes", .onUnlock: "/bin/true", .onWrong: "/bin/true",
    .onLockout: "/bin/true", .onDuress: "/bin/true", .duressOpens: "no", .hookUser: "nobody", .gpioUnlock: "gpiochip0:4", .doorSensor: "DOOR_CONTACT", .doorHeldOpenSeconds: "60", .exitButton: "EXIT_BUTTON",
  ]

  func testEverySettingIsClassifiedAsTheTableMarksIt() {
    for setting in Setting.allCases {
      guard let trust = PrivilegedKeyTests.classification[setting] else {
        XCTFail("\(setting.name) is new: classify it here and in docs/security.md (does it run, choose a user, unit, GPIO line or VT, power off, or change judging?)")
        continue
      }
      XCTAssertEqual(setting.trust, trust, "\(setting.name) is marked \(setting.trust) in the settings table")
    }
    for setting in Setting.allCases where setting.trust == .privileged {
      XCTAssertNotNil(PrivilegedKeyTests.sampleValues[setting], "give \(setting.name) a sample value")
    }
  }

  func testTheSecurityDocumentNamesEveryPrivilegedKey() throws {
    let text = try String(contentsOf: PackageRoot.url("docs/security.md"), encoding: .utf8)
    for setting in Setting.allCases where setting.trust != .anySource {
      XCTAssertTrue(text.contains("`\(setting.name)`"), "docs/security.md does not name \(setting.name)")
    }
  }

  func testAsRootEveryPrivilegedOptionIsRefusedByEveryCommandThatGuardsIt() throws {
    for setting in Setting.allCases where setting.trust == .privileged {
      let option = try XCTUnwrap(setting.option)
      let value = try XCTUnwrap(PrivilegedKeyTests.sampleValues[setting])
      for command in setting.row.commands {
        let arguments = [option, value]
        if command.guardsPrivilegedKeys {
          XCTAssertThrowsError(
            try CommandLineSettings(arguments, for: command, configurationRoot: "/nonexistent-root", effectiveUser: 0)
          ) { error in
            XCTAssertEqual(error as? ConfigurationError, .privilegedOption(option: option, key: setting), "\(command.name) \(option)")
          }
          XCTAssertNoThrow(
            try CommandLineSettings(arguments, for: command, configurationRoot: "/nonexistent-root", effectiveUser: 1000),
            "an ordinary user may give \(option) to \(command.name)")
        } else {
          XCTAssertNoThrow(
            try CommandLineSettings(arguments, for: command, configurationRoot: "/nonexistent-root", effectiveUser: 0),
            "\(command.name) never acts on \(option), so it takes it")
        }
      }
    }
  }

  func testAsRootEveryPrivilegedKeyIsRefusedFromEveryDistrustedFile() throws {
    let root = try ConfigRoot()
    defer { root.remove() }
    let owners = ConfigurationTrust.throttleOnly(root: root.path).trustedOwners
    let asRoot = ConfigurationTrust(guardsPrivilegedKeys: true, trustedOwners: owners)
    let asUser = ConfigurationTrust(guardsPrivilegedKeys: false, trustedOwners: owners)
    for setting in Setting.allCases where setting.trust == .privileged {
      let section = try XCTUnwrap(setting.section)
      let text = "[\(section)]\n\(setting.name) = \(PrivilegedKeyTests.sampleValues[setting]!)\n"
      try? FileManager.default.removeItem(atPath: root.path + "/etc")
      try root.write("etc/patternlock.conf", text)
      XCTAssertNoThrow(try ConfigurationFiles.load(root: root.path, extra: nil, trust: asRoot), "trusted: \(setting.name)")

      // Each distrusted source makes its tree afresh: (what it is, the --config file, the key's file).
      let setUps: [(String, () throws -> (String?, String))] = [
        ("--config", { (try root.write("extra.conf", text), root.path + "/extra.conf") }),
        ("a group and world writable /etc/patternlock.conf", {
          let file = try root.write("etc/patternlock.conf", text)
          chmod(file, 0o666)
          return (nil, file)
        }),
        ("a conf.d file in a world-writable conf.d", {
          let file = try root.write("etc/patternlock.conf.d/10-x.conf", text)
          chmod(root.path + "/etc/patternlock.conf.d", 0o777)
          return (nil, file)
        }),
      ]
      for (what, setUp) in setUps {
        try? FileManager.default.removeItem(atPath: root.path + "/etc")
        let (extra, file) = try setUp()
        XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: extra, trust: asRoot), "\(setting.name) from \(what)") { error in
          guard case .privilegedKey(let path, let line, let key, _)? = error as? ConfigurationError else { return XCTFail("\(error)") }
          XCTAssertEqual(path, file)
          XCTAssertEqual(line, 2)
          XCTAssertEqual(key, setting)
        }
        XCTAssertNoThrow(
          try ConfigurationFiles.load(root: root.path, extra: extra, trust: asUser), "an ordinary user: \(setting.name) from \(what)")
      }
    }
  }

  func testTheMessagesSayWhereTheKeyBelongs() {
    XCTAssertEqual(
      ConfigurationError.privilegedKey(path: "/home/u/x.conf", line: 3, key: .onWrong, why: "this is a --config file").message,
      "/home/u/x.conf:3: 'on-wrong' acts as root, so running as root it is read only from the root-owned system configuration (/usr/share/patternlock/patternlock.conf, /etc/patternlock.conf, /etc/patternlock.conf.d/*.conf), and this is a --config file (move the line to /etc/patternlock.conf, owned by root and writable only by root)")
    XCTAssertEqual(
      ConfigurationError.privilegedOption(option: "--exec", key: .exec).message,
      "command line: --exec acts as root, so running as root it is read only from the root-owned system configuration (put 'exec = ...' under [lock] in /etc/patternlock.conf, owned by root and writable only by root)")
  }
}
