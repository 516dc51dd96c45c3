import PatternChoice
import PatternCore
import Scene

/// The settings table: one row per setting, read by the file parser, the command-line
/// parser, the error messages, `--help` and the documentation test.
///
/// Defaults that belong to another module (the state directory, the Argon2id cost, the
/// font) are written into the help text here; ConfigurationTests checks them against
/// those modules.
extension Setting {
  /// The longest message, in bytes: three lines' worth on the widest band, and a
  /// bound on what start-up lays out.
  public static let maximumMessageBytes = 300

  public var row: SettingRow {
    let gridSizes = LayoutOptions.gridSizes
    let hitRadii = LayoutOptions.hitRadiusRange
    let dpis = LayoutOptions.dpiRange
    let layoutCommands: [Command] = [.layout, .replay, .run, .enroll, .sessionLock, .passwordAgent]
    let screenCommands: [Command] = [.run, .enroll, .replay, .sessionLock, .passwordAgent]
    let displayCommands: [Command] = [.run, .enroll, .passwordAgent]
    // Where the lock screen runs unattended, and replay, which shows (never runs) its action.
    let unattendedCommands: [Command] = [.run, .replay]
    let vaultCommands: [Command] = [.run, .enroll, .replay, .setPattern, .check, .judge, .resetAttempts, .status, .log, .credential, .sessionLock]
    switch self {
    case .grid:
      return SettingRow(
        section: "layout", option: "--grid", placeholder: "N", grammar: .wholeNumber(gridSizes),
        accepted: "a whole number from \(gridSizes.lowerBound) to \(gridSizes.upperBound)",
        help: "dots per side, \(gridSizes.lowerBound) to \(gridSizes.upperBound) (default 3)",
        commands: layoutCommands + [.setPattern, .disk], screen: true)
    case .hitRadius:
      return SettingRow(
        section: "layout", option: "--hit-radius", placeholder: "M", grammar: .wholeNumber(hitRadii),
        accepted: "thousandths of half a cell, \(hitRadii.lowerBound) to \(hitRadii.upperBound)",
        help: "hit radius in thousandths of half a cell, \(hitRadii.lowerBound) to \(hitRadii.upperBound) (default 600)",
        commands: layoutCommands, screen: true)
    case .dpi:
      return SettingRow(
        section: "layout", option: "--dpi", placeholder: "D", grammar: .wholeNumberOrWord("auto", dpis),
        accepted: "'auto' or pixels per inch, \(dpis.lowerBound) to \(dpis.upperBound)",
        help: "pixels per inch, \(dpis.lowerBound) to \(dpis.upperBound) (default: the display's physical size; replay and layout scale with the panel)",
        commands: layoutCommands, screen: true)
    case .rotate:
      return SettingRow(
        section: "layout", option: "--rotate", placeholder: "DEG", grammar: .rotation, accepted: "0, 90, 180 or 270",
        help: "turn the view 0, 90, 180 or 270 degrees clockwise (run: added to the panel's orientation)",
        commands: layoutCommands, screen: true)
    case .size:
      return SettingRow(
        section: "layout", option: "--size", placeholder: "WxH", grammar: .size,
        accepted: "WIDTHxHEIGHT in pixels, each \(LayoutOptions.minimumSide) to \(LayoutOptions.maximumSide), such as 800x480",
        help: "panel size in pixels (default 800x480; run and enroll take the display's mode, see --mode)",
        commands: [.layout, .replay], screen: true)
    case .device:
      return SettingRow(
        section: "display", option: "--device", placeholder: "PATH", grammar: .absolutePath(orWord: "auto"),
        accepted: "'auto' or the path of a DRM card or an fbdev device, such as /dev/dri/card1 or /dev/fb1",
        help: "run, enroll: the DRM card, or an fbdev device /dev/fbN (default: a built-in panel before a monitor, on any card, else /dev/fb0)",
        commands: displayCommands)
    case .output:
      return SettingRow(
        section: "display", option: "--output", placeholder: "NAME", grammar: .name(orWord: "auto"),
        accepted: "'auto' or a connector name, such as DSI-1 or HDMI-A-1",
        help: "the connector, such as HDMI-A-1 or DSI-1, on any card (default: a built-in panel before a monitor)", commands: displayCommands)
    case .backlight:
      return SettingRow(
        section: "display", option: "--backlight", placeholder: "NAME", grammar: .name(orWord: "auto"),
        accepted: "'auto', 'none' or a device of /sys/class/backlight, such as rpi_backlight or 10-0045",
        help: "run, enroll: the backlight switched off when the lock blanks, the panel left powered so touch wakes it (default: the output's own, else the only one; none: switch the display off)",
        commands: displayCommands)
    case .brightnessMinimum, .brightnessMaximum:
      return SettingRow(
        section: "display", option: nil, grammar: .wholeNumber(1...100), accepted: "a percent of the backlight's range from 1 to 100",
        trust: .systemOnly)
    case .mode:
      return SettingRow(
        section: "display", option: "--mode", placeholder: "WxH[@HZ]", grammar: .mode,
        accepted: "'preferred', WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 800x480@60",
        help: "the display mode, such as 800x480 or 1920x1080@60 (default: the preferred mode)", commands: displayCommands)
    case .format:
      return SettingRow(
        section: "display", option: "--format", placeholder: "F", grammar: .pixelFormat,
        accepted: "'auto', xrgb8888 or rgb565",
        help: "the frame buffer format: auto (run: RGB565 when the driver prefers 16 bits, else XRGB8888; replay: xrgb8888), xrgb8888 or rgb565",
        commands: screenCommands)
    case .displayWaitSeconds:
      return SettingRow(
        section: "display", option: "--display-wait-s", placeholder: "S", grammar: .wholeNumber(0...600),
        accepted: "seconds from 0 (do not wait) to 600",
        help: "run, enroll: wait up to S seconds for a DRM display to appear (a driver still loading at boot) before falling back to /dev/fb0 or giving up (default 20)",
        commands: displayCommands)
    case .font:
      return SettingRow(
        section: "display", option: "--font", placeholder: "PATH", grammar: .absolutePath(orWord: "default"),
        accepted: "'default' or the absolute path of a TrueType or OpenType font",
        help: "the prompt's font (default DejaVu Sans)", commands: screenCommands, screen: true)
    case .language:
      let names = LanguageChoice.names
      return SettingRow(
        section: "display", option: "--language", placeholder: "LANG", grammar: .language,
        accepted: names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1],
        help: "the prompts' language: " + names.dropFirst().joined(separator: ", ")
          + " or auto, the locale's (LC_ALL, LC_MESSAGES, LANG; else en) (default auto)",
        commands: screenCommands, screen: true)
    case .seat:
      return SettingRow(
        section: "input", option: "--seat", placeholder: "NAME", grammar: .name(orWord: nil),
        accepted: "a libinput seat name, such as seat0", help: "the libinput seat (default seat0)", commands: displayCommands)
    case .calibration:
      return SettingRow(
        section: "input", option: "--calibration", placeholder: "\"a b c d e f\"", grammar: .calibration,
        accepted: "'none' or six numbers, as LIBINPUT_CALIBRATION_MATRIX: \"a b c d e f\"",
        help: "touchscreen calibration matrix (as LIBINPUT_CALIBRATION_MATRIX)", commands: displayCommands)
    case .input:
      return SettingRow(
        section: "input", option: "--input", placeholder: "MODE", grammar: .inputMode, accepted: "drag, tap or both",
        help: "drag, tap (dot by dot; tap the last again or wait 3 s to confirm) or both (default: a touch that stays on one dot taps)",
        commands: screenCommands, screen: true)
    case .minDots:
      let dots = 1...(gridSizes.upperBound * gridSizes.upperBound)
      return SettingRow(
        section: "lock", option: "--min-dots", placeholder: "N", grammar: .wholeNumber(dots),
        accepted: "a whole number from \(dots.lowerBound) to \(dots.upperBound) (at most the dots of the grid)",
        help: "the fewest dots a new pattern may have; shorter ones are not counted at unlock (default 4)",
        commands: [.run, .enroll, .setPattern, .disk])
    case .stealth:
      return SettingRow(
        section: "lock", option: "--stealth", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "hide the line and the joined dots, while drawing and after a try (Android's stealth)", commands: screenCommands, screen: true)
    case .showWrong:
      return SettingRow(
        section: "lock", option: "--show-wrong", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "with --stealth, show a wrong try's path in red for the verdict's time, on this screen only (default no, as on Android)",
        commands: screenCommands, screen: true)
    case .fadeTrail:
      return SettingRow(
        section: "lock", option: "--fade-trail", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "while drawing, the joined part of the line fades along its length, older segments fainter (default no)",
        commands: screenCommands, screen: true)
    case .feedbackMilliseconds:
      return SettingRow(
        section: "lock", option: "--feedback-ms", placeholder: "MS", grammar: .wholeNumber(0...10_000),
        accepted: "milliseconds from 0 to 10000", help: "how long a verdict stays on screen, 0 to 10000 (default 500)",
        commands: screenCommands, screen: true)
    case .idleBlankSeconds:
      return SettingRow(
        section: "lock", option: "--idle-blank-s", placeholder: "S", grammar: .wholeNumber(0...86_400),
        accepted: "seconds from 0 (never blank) to 86400",
        help: "switch the display off after S seconds without input; a touch wakes it (0: never)", commands: displayCommands, screen: true)
    case .dimAfterSeconds:
      return SettingRow(
        section: "lock", option: "--dim-after-s", placeholder: "S", grammar: .wholeNumber(0...86_400),
        accepted: "seconds from 0 (never dim) to 86400, less than idle-blank-s",
        help: "dim the backlight to dim-level after S seconds without input, before idle-blank-s blanks; a touch brightens it and counts (0: never)",
        commands: displayCommands, screen: true)
    case .dimLevel:
      return SettingRow(
        section: "lock", option: "--dim-level", placeholder: "PERCENT", grammar: .wholeNumber(1...100),
        accepted: "a percent of the backlight's range from 1 to 100",
        help: "how bright a dimmed screen is, in percent of the backlight's range, never above its normal level (default 20)",
        commands: displayCommands)
    case .exec:
      return SettingRow(
        section: "lock", option: "--exec", placeholder: "CMD ARG...", grammar: .program,
        accepted: "'none' or an absolute program path and its arguments, separated by spaces",
        help: "after unlocking, replace patternlock with CMD (an absolute path); takes the rest of the line", commands: [.run], trust: .privileged)
    case .kioskUnit:
      return SettingRow(
        section: "lock", option: "--kiosk-unit", placeholder: "UNIT", grammar: .name(orWord: "none"),
        accepted: "'none' or a systemd unit name, such as patternlock-kiosk.service",
        help: "after unlocking, start UNIT (a kiosk in its own session on kiosk-vt) and switch to it; the lock stays behind it and comes back on relock-idle-s, 'patternlock lock' or the kiosk's end (default: none)",
        commands: [.run], trust: .privileged)
    case .kioskVT:
      return SettingRow(
        section: "lock", option: "--kiosk-vt", placeholder: "N", grammar: .wholeNumber(2...63),
        accepted: "a virtual terminal number from 2 to 63 (the kiosk unit's TTYPath=/dev/ttyN)",
        help: "the kiosk's virtual terminal, 2 to 63, as in its unit's TTYPath= (default 7)", commands: [.run], trust: .privileged)
    case .relockIdleSeconds:
      return SettingRow(
        section: "lock", option: "--relock-idle-s", placeholder: "S", grammar: .wholeNumber(0...86_400),
        accepted: "seconds from 0 (never) to 86400",
        help: "lock again over the kiosk after S seconds without input in it (0: never)", commands: [.run], trust: .privileged)
    case .onUnlock, .onWrong, .onLockout, .onDuress:
      let event: String
      switch self {
      case .onUnlock: event = "an unlock"
      case .onWrong: event = "a counted wrong pattern"
      case .onLockout: event = "a lockout starting"
      default: event = "an unlock by a duress credential (after on-unlock, which runs too)"
      }
      return SettingRow(
        section: "actions", option: "--" + rawValue, placeholder: "\"CMD ARG...\"", grammar: .command,
        accepted: "'none' or an absolute program path and its arguments, separated by spaces",
        help: "after \(event), start CMD as hook-user without waiting for it (run and check; never replay)",
        commands: [.run, .check, .judge], trust: .privileged)
    case .duressOpens:
      return SettingRow(
        section: "actions", option: "--duress-opens", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "whether an unlock by a duress credential pulses gpio-unlock as any unlock does (default yes)",
        commands: [.run, .check, .judge], trust: .privileged)
    case .hookUser:
      return SettingRow(
        section: "actions", option: "--hook-user", placeholder: "USER", grammar: .name(orWord: nil),
        accepted: "a user name from the password database, such as nobody or door",
        help: "the user the on-* hooks run as (default nobody)", commands: [.run, .check, .judge], trust: .privileged)
    case .gpioUnlock:
      let durations = DoorStrikeLine.durations
      return SettingRow(
        section: "actions", option: "--gpio-unlock", placeholder: "\"LINE [MS] [active-low]\"", grammar: .doorStrikeLine,
        accepted: "'none' or LINE [MS] [active-low]: LINE a line name (gpioinfo) or CHIP-LABEL:OFFSET (gpiodetect), MS \(durations.lowerBound) to \(durations.upperBound) (default \(DoorStrikeLine.defaultMilliseconds)), such as DOOR_STRIKE 500 or pinctrl-rp1:17 300 active-low",
        help: "on an unlock (and an exit-button press), drive GPIO line LINE active for MS milliseconds (a door strike's relay; run and check)",
        commands: [.run, .check, .judge], trust: .privileged)
    case .doorSensor:
      return SettingRow(
        section: "actions", option: "--door-sensor", placeholder: "\"LINE [active-low]\"", grammar: .gpioInput,
        accepted: "'none' or LINE [active-low]: a line name (gpioinfo) or CHIP-LABEL:OFFSET (gpiodetect), active when the door is open",
        help: "the door contact: run logs the door opened without a strike release (door-forced) and left open past door-held-open-s",
        commands: [.run], trust: .privileged)
    case .doorHeldOpenSeconds:
      return SettingRow(
        section: "actions", option: "--door-held-open-s", placeholder: "S", grammar: .wholeNumber(1...86_400),
        accepted: "seconds from 1 to 86400",
        help: "how long the door may stand open before run logs door-held-open (default 30)", commands: [.run], trust: .privileged)
    case .exitButton:
      return SettingRow(
        section: "actions", option: "--exit-button", placeholder: "\"LINE [active-low]\"", grammar: .gpioInput,
        accepted: "'none' or LINE [active-low]: a line name (gpioinfo) or CHIP-LABEL:OFFSET (gpiodetect), active while pressed",
        help: "the request-to-exit button inside: a press pulses gpio-unlock without a pattern, and is logged (run)",
        commands: [.run], trust: .privileged)
    case .remoteUnlock:
      return SettingRow(
        section: "actions", option: nil, grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        trust: .systemOnly)
    case .mqttHost:
      return SettingRow(
        section: "mqtt", option: "--host", placeholder: "HOST", grammar: .name(orWord: nil),
        accepted: "a host name or address, such as localhost or 192.168.1.10",
        help: "the MQTT broker (default localhost)", commands: [.mqtt])
    case .mqttPort:
      return SettingRow(
        section: "mqtt", option: "--port", placeholder: "PORT", grammar: .wholeNumberOrWord("auto", 1...65_535),
        accepted: "'auto' or a port from 1 to 65535", help: "the broker's port (default auto: 1883, or 8883 with ca-file)", commands: [.mqtt])
    case .mqttCAFile, .mqttCertificateFile, .mqttKeyFile:
      let what: String
      switch self {
      case .mqttCAFile: what = "connect with TLS, trusting the certificate authority in FILE (PEM)"
      case .mqttCertificateFile: what = "TLS: present the client certificate in FILE (PEM; needs key-file)"
      default: what = "TLS: the client certificate's private key in FILE (PEM; needs cert-file)"
      }
      return SettingRow(
        section: "mqtt", option: "--" + rawValue, placeholder: "FILE", grammar: .absolutePath(orWord: "none"),
        accepted: "'none' or an absolute file path", help: what, commands: [.mqtt])
    case .mqttUsername:
      return SettingRow(
        section: "mqtt", option: "--username", placeholder: "NAME", grammar: .name(orWord: "none"),
        accepted: "'none' or a user name without spaces", help: "the broker's user name (default none)", commands: [.mqtt])
    case .mqttPasswordFile:
      return SettingRow(
        section: "mqtt", option: "--password-file", placeholder: "FILE", grammar: .absolutePath(orWord: "none"),
        accepted: "'none' or an absolute file path",
        help: "the broker's password, the file's first line; the file must be readable by mqtt's user only", commands: [.mqtt])
    case .mqttTopicPrefix, .mqttDiscoveryPrefix:
      let help =
        self == .mqttTopicPrefix
        ? "the topics' prefix: PREFIX/DEVICE/state, .../event, .../command (default patternlock)"
        : "Home Assistant's discovery prefix (default homeassistant)"
      return SettingRow(
        section: "mqtt", option: "--" + rawValue, placeholder: "PREFIX", grammar: .topic,
        accepted: "topic levels joined by '/', without '+', '#' or spaces, such as patternlock or site/door", help: help,
        commands: [.mqtt])
    case .mqttDeviceName:
      return SettingRow(
        section: "mqtt", option: "--device-name", placeholder: "NAME", grammar: .message(maximumBytes: 64),
        accepted: "text of at most 64 bytes, such as Front door",
        help: "the device's name in Home Assistant; its topic level is the name in lower case, '-' for the rest (default patternlock)",
        commands: [.mqtt])
    case .message:
      let bytes = Setting.maximumMessageBytes
      return SettingRow(
        section: "lock", option: "--message", placeholder: "TEXT", grammar: .message(maximumBytes: bytes),
        accepted: "text of at most \(bytes) bytes (UTF-8), or nothing for none",
        help: "words under the prompt (owner, contact), wrapped to at most \(LayoutOptions.maximumMessageLines) lines (default: none)",
        commands: screenCommands, screen: true)
    case .timeoutSeconds:
      return SettingRow(
        section: "lock", option: "--timeout-s", placeholder: "S", grammar: .wholeNumber(0...604_800),
        accepted: "seconds from 0 (never) to 604800",
        help: "after S seconds without input at the lock, run timeout-action once (0: never)", commands: unattendedCommands, trust: .privileged, screen: true)
    case .timeoutAction:
      return SettingRow(
        section: "lock", option: "--timeout-action", placeholder: "ACTION", grammar: .timeoutAction,
        accepted: "poweroff, reboot, blank or none",
        help: "what the timeout does: poweroff, reboot (the lock never opens), blank or none (default poweroff)",
        commands: unattendedCommands, trust: .privileged, screen: true)
    case .powerButton:
      return SettingRow(
        section: "lock", option: "--power-button", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "show a power button in a corner; holding it 2 seconds switches the machine off", commands: layoutCommands, trust: .privileged, screen: true)
    case .gridMotion:
      return SettingRow(
        section: "lock", option: "--grid-motion", placeholder: "MOTION", grammar: .gridMotion, accepted: "off, shift or turn",
        help: "against watchers: before each try shift the grid a little, or turn it a random quarter turn (its top is marked); default off",
        commands: screenCommands, screen: true)
    case .theme:
      let names = ThemePreset.allCases.map { $0.name }
      return SettingRow(
        section: "theme", option: "--theme", placeholder: "NAME", grammar: .themePreset,
        accepted: names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1],
        help: "the colours: default (the seeds' dark look), high-contrast (at least 7:1) or light; the colour-* keys change single colours",
        commands: screenCommands, screen: true)
    case .colourBackgroundTop, .colourBackgroundBottom, .colourRing, .colourDot, .colourLine, .colourWrong, .colourSuccess,
      .colourText, .colourMessage:
      return SettingRow(
        section: "theme", option: "--" + rawValue, placeholder: "#RRGGBB", grammar: .colour,
        accepted: "'theme' (the theme's colour) or #RRGGBB, or #RRGGBBAA with an opacity, in hexadecimal, such as #20D2FE",
        help: "the colour of \(colourPart), #RRGGBB[AA] (default: the theme's)", commands: screenCommands, screen: true)
    case .lineOpacity:
      return SettingRow(
        section: "theme", option: "--line-opacity", placeholder: "PERCENT", grammar: .wholeNumberOrWord("theme", 0...100),
        accepted: "'theme' (the theme's opacity) or a percentage from 0 to 100",
        help: "the line's opacity in percent, 0 to 100 (default: the theme's; default 50, light 80, high-contrast 100)",
        commands: screenCommands, screen: true)
    case .stateDir:
      return SettingRow(
        section: "vault", option: "--state-dir", placeholder: "DIR", grammar: .absolutePath(orWord: nil),
        accepted: "an absolute directory path",
        help: "where the pattern hash and attempts live (default /var/lib/patternlock); run and replay judge against it",
        commands: vaultCommands)
    case .enrollFirst:
      return SettingRow(
        section: "vault", option: "--enroll-first", grammar: .yesOrNo, accepted: "yes or no (also true/false, on/off, 1/0)",
        help: "with no pattern set, show the enrolment screen first, then lock with the new pattern", commands: [.run])
    case .argonPasses:
      return SettingRow(
        section: "vault", option: "--argon-passes", placeholder: "N", grammar: .wholeNumber(1...100),
        accepted: "a whole number from 1 to 100", help: "Argon2id passes, 1 to 100 (default 2)", commands: [.setPattern])
    case .argonMemoryMiB:
      return SettingRow(
        section: "vault", option: "--argon-memory-mib", placeholder: "N", grammar: .wholeNumber(1...4096),
        accepted: "MiB from 1 to 4096", help: "Argon2id memory in MiB, 1 to 4096 (default 32)", commands: [.setPattern])
    case .throttle:
      return SettingRow(
        section: "vault", option: nil, grammar: .waits,
        accepted: "'android' or waits after failure 1, 2, 3..., never decreasing, each seconds or with s, m, h or d, such as 0 0 0 0 1m 5m",
        trust: .systemOnly)
    case .permanentAfter:
      return SettingRow(
        section: "vault", option: nil, grammar: .wholeNumber(1...1000),
        accepted: "the failure count from which only reset-attempts helps, 1 to 1000", trust: .systemOnly)
    case .tpm:
      return SettingRow(
        section: "vault", option: nil, grammar: .tpmUse,
        accepted: "off, auto (bind new patterns to the TPM when its device exists) or required", trust: .systemOnly)
    case .blocklist:
      return SettingRow(
        section: "vault", option: nil,
        grammar: .wholeNumberOrWord("off", PatternBlocklist.standardSize...PatternBlocklist.largestSize),
        accepted: "off, or how many patterns of the head of an attacker's order enrolments refuse (each with its turned, mirrored and reversed images), from \(PatternBlocklist.standardSize) (the standard list: it can be widened, never narrowed) to \(PatternBlocklist.largestSize)",
        trust: .systemOnly)
    case .judgeSocket:
      return SettingRow(
        section: "vault", option: "--judge-socket", placeholder: "PATH", grammar: .absolutePath(orWord: nil),
        accepted: "an absolute socket path",
        help: "session-lock: the judge's socket (default /run/patternlock/judge.sock); --state-dir on the command line judges in this process instead",
        commands: [.sessionLock])
    case .tpmTCTI:
      return SettingRow(
        section: "vault", option: nil, grammar: .text,
        accepted: "a tpm2-tss TCTI string, such as device:/dev/tpmrm0 or swtpm:host=127.0.0.1,port=2321",
        trust: .systemOnly)
    case .config:
      return SettingRow(
        section: nil, option: "--config", placeholder: "FILE", grammar: .text, accepted: "the path of a configuration file",
        help: "read FILE after /usr/share/patternlock/patternlock.conf, /etc/patternlock.conf and /etc/patternlock.conf.d/*.conf",
        commands: vaultCommands + [.mqtt, .passwordAgent, .disk])
    case .pattern:
      return SettingRow(
        section: nil, option: "--pattern", placeholder: "1-2-3-6", grammar: .pattern,
        accepted: "distinct dot numbers joined by '-', such as 1-2-3-6",
        help: "DEVELOPMENT ONLY: the pattern that unlocks, in plain text (replay: not with --state-dir)",
        commands: [.run, .replay])
    case .since:
      return SettingRow(
        section: nil, option: "--since", placeholder: "TIME", grammar: .text,
        accepted: "a UTC time YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS",
        help: "log: only entries at or after TIME (UTC), such as 2026-12-01T08:00", commands: [.log])
    case .json:
      return SettingRow(
        section: nil, option: "--json", grammar: .yesOrNo, accepted: "yes or no",
        help: "log: print the entries as stored, one JSON object per line", commands: [.log])
    case .role:
      return SettingRow(
        section: nil, option: "--role", placeholder: "ROLE", grammar: .text, accepted: "admin, user, guest or duress",
        help: "credential add: admin, user, guest (all unlock alike) or duress (unlocks, and fires on-duress) (default user)",
        commands: [.credential])
    case .expires:
      return SettingRow(
        section: nil, option: "--expires", placeholder: "TIME", grammar: .text,
        accepted: "a local time YYYY-MM-DDTHH:MM, such as 2027-01-31T18:00",
        help: "credential add: from TIME (local time, YYYY-MM-DDTHH:MM) on, the credential is judged wrong",
        commands: [.credential])
    case .hours:
      return SettingRow(
        section: nil, option: "--hours", placeholder: "\"DAYS HH:MM-HH:MM\"", grammar: .text,
        accepted: "DAYS HH:MM-HH:MM, such as \"Mon-Fri 08:00-18:00\"",
        help: "credential add: outside these local hours the credential is judged wrong, such as \"Mon-Fri 08:00-18:00\"",
        commands: [.credential])
    case .timing:
      return SettingRow(
        section: nil, option: "--timing", grammar: .yesOrNo, accepted: "yes or no",
        help: "print start-to-first-flip and input-to-flip times, and what each flip changed", commands: displayCommands)
    case .headless:
      return SettingRow(
        section: nil, option: "--headless", placeholder: "WxH", grammar: .mode,
        accepted: "WIDTHxHEIGHT, such as 800x480",
        help: "DEVELOPMENT ONLY: draw into memory at WxH instead of on a display, and stop after the first frame (never an unlock): the start measured without a display (scripts/bench-start-up)",
        commands: [.run, .passwordAgent])
    case .recordedDevice:
      return SettingRow(
        section: nil, option: "--device", placeholder: "N|NAME", grammar: .recordedDevice,
        accepted: "a device's number in the recording (1 for the first) or its name",
        help: "replay: the recorded device, its number in the file (1 for the first) or its name (default: the first touchscreen with events, else the first tablet with events)",
        commands: [.replay])
    case .dump:
      return SettingRow(
        section: nil, option: "--dump", placeholder: "DIR", grammar: .text, accepted: "a directory path",
        help: "write every picture the device would show as DIR/00000.png, 00001.png, ... (run's pictures, lockout countdown included, with --state-dir)",
        commands: [.replay])
    case .contactSheet:
      return SettingRow(
        section: nil, option: "--contact-sheet", placeholder: "FILE", grammar: .text, accepted: "a file path",
        help: "write all pictures as thumbnails on one PNG", commands: [.replay])
    case .wait:
      return SettingRow(
        section: nil, option: "--wait", placeholder: "MS", grammar: .wholeNumber(0...600_000),
        accepted: "milliseconds from 0 to 600000",
        help: "how long to wait for udev and readers after making the device, before the first event (default 1000)",
        commands: [.inject])
    case .uinput:
      return SettingRow(
        section: nil, option: "--uinput", placeholder: "PATH", grammar: .text, accepted: "a device path",
        help: "the uinput device node (default /dev/uinput)", commands: [.inject])
    case .gridSeed:
      return SettingRow(
        section: nil, option: "--grid-seed", placeholder: "N", grammar: .wholeNumber(0...999_999_999),
        accepted: "a whole number from 0 to 999999999",
        help: "with grid-motion, where the grid stands for each try is drawn from this seed, the same on every run (default 0)",
        commands: [.replay])
    }
  }

  /// What a colour key paints, for its help line.
  private var colourPart: String {
    switch self {
    case .colourBackgroundTop: return "the background's top (a vertical gradient)"
    case .colourBackgroundBottom: return "the background's bottom"
    case .colourRing: return "a dot's ring before it is joined"
    case .colourDot: return "a dot before it is joined"
    case .colourLine: return "the line and the joined dots while drawing"
    case .colourWrong: return "the line, the joined dots and the prompt after a wrong pattern"
    case .colourSuccess: return "the line and the joined dots after an unlock"
    case .colourText: return "the prompt"
    case .colourMessage: return "the message under the prompt"
    default: return name
    }
  }
}
