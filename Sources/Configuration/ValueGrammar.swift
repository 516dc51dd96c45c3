import GPIO
import PatternCore
import Raster
import Scene

/// How a setting's value is written, with the range it must be in: the one parser of
/// every value, whether it comes from patternlock.conf or the command line.
///
/// Written out because Embedded Swift has no `Int(String)` for every width and no
/// `Double(String)`; each form is exact, never a partial value.
public enum ValueGrammar: Sendable {
  /// A whole number within the range.
  case wholeNumber(ClosedRange<Int>)
  /// A whole number within the range, or `word` for none (`dpi = auto`).
  case wholeNumberOrWord(String, ClosedRange<Int>)
  /// 0, 90, 180 or 270 degrees.
  case rotation
  /// `WIDTHxHEIGHT` within LayoutOptions' side limits.
  case size
  /// An absolute path, or `word` (when there is one) for the automatic choice.
  case absolutePath(orWord: String?)
  /// A name without spaces, or `word` (when there is one) for the automatic choice.
  case name(orWord: String?)
  /// Any text but the empty one: a path the command creates or checks itself.
  case text
  /// `preferred`, `WxH` or `WxH@HZ`, each number 1 to 5 digits and above zero.
  case mode
  /// `none` or six decimal numbers separated by spaces or commas (as libinput's udev
  /// property).
  case calibration
  /// yes/no, true/false, on/off, 1/0; on the command line the option alone is yes.
  case yesOrNo
  /// `none`, or an absolute program path and its arguments separated by spaces; on the
  /// command line, the rest of the line.
  case program
  /// The same in one value, on the command line too (`--on-wrong "/usr/bin/x wrong"`).
  case command
  /// `none` or `LINE [MS] [active-low]` (`DoorStrikeLine`), such as DOOR_STRIKE 500.
  case doorStrikeLine
  /// `none` or `LINE [active-low]` (`GPIOLineGrammar`), such as DOOR_CONTACT active-low.
  case gpioInput
  /// `android`, or waits such as `0 0 60 5m 1h 2d`: seconds, or with an s, m, h or d
  /// suffix, never decreasing.
  case waits
  /// Distinct dot numbers joined by `-`, such as `1-2-3-6`.
  case pattern
  /// A frame buffer format by name (`xrgb8888`, `rgb565`), or `auto`.
  case pixelFormat
  /// A device of a recording: its number, 1 for the first, or its name.
  case recordedDevice
  /// What the unattended timeout does: `poweroff`, `reboot`, `blank` or `none`.
  case timeoutAction
  /// Whether enrolment binds the pattern to a TPM: `off`, `auto` or `required`.
  case tpmUse
  /// How touches enter a pattern: `drag`, `tap` or `both`.
  case inputMode
  /// How the grid moves between attempts: `off`, `shift` or `turn`.
  case gridMotion
  /// Text shown on the screen, UTF-8, at most `maximumBytes` bytes; empty for none.
  case message(maximumBytes: Int)
  /// MQTT topic levels joined by `/`: none empty, no wildcard (`+`, `#`), no space.
  case topic
  /// A theme preset by name (`default`, `high-contrast`, `light`).
  case themePreset
  /// `auto` or a language of the message catalogue by its code (`de`, `zh_CN`).
  case language
  /// `#RRGGBB` (opaque) or `#RRGGBBAA`, hexadecimal in either case, or `theme` for the
  /// theme's own colour.
  case colour

  /// The value `text` stands for, or nil when it is not of this form and range.
  public func parse(_ text: String) -> SettingValue? {
    switch self {
    case .wholeNumber(let range):
      guard let n = ValueGrammar.integer(text), range.contains(n) else { return nil }
      return .number(n)
    case .wholeNumberOrWord(let word, let range):
      if text == word { return .optionalNumber(nil) }
      guard let n = ValueGrammar.integer(text), range.contains(n) else { return nil }
      return .optionalNumber(n)
    case .rotation:
      guard let degrees = ValueGrammar.integer(text), let rotation = Rotation(degrees: degrees) else { return nil }
      return .rotation(rotation)
    case .size:
      return ValueGrammar.size(text).map { .size(width: $0.width, height: $0.height) }
    case .absolutePath(let word):
      if let word, text == word { return .optionalText(nil) }
      return text.hasPrefix("/") ? .optionalText(text) : nil
    case .name(let word):
      guard !text.isEmpty, !text.contains(" ") else { return nil }
      if let word, text == word { return .optionalText(nil) }
      return .optionalText(text)
    case .text:
      return text.isEmpty ? nil : .optionalText(text)
    case .mode:
      if text == "preferred" { return .mode(nil) }
      return ValueGrammar.mode(text).map { .mode($0) }
    case .calibration:
      if text == "none" { return .calibration(nil) }
      return ValueGrammar.calibration(text).map { .calibration($0) }
    case .yesOrNo:
      return ValueGrammar.boolean(text).map { .flag($0) }
    case .program:
      return ValueGrammar.program(ValueGrammar.words(text))
    case .waits:
      if text == "android" { return .waits(ThrottleTable.android.delaysSeconds) }
      guard let waits = ValueGrammar.durations(text), ThrottleTable(delaysSeconds: waits, permanentAfter: 1000) != nil else {
        return nil
      }
      return .waits(waits)
    case .pattern:
      return ValueGrammar.dots(text).map { .dots($0) }
    case .pixelFormat:
      if text == "auto" { return .pixelFormat(nil) }
      return PixelFormat(name: text).map { .pixelFormat($0) }
    case .recordedDevice:
      return ValueGrammar.recordedDevice(text).map { .recordedDevice($0) }
    case .command:
      return ValueGrammar.program(ValueGrammar.words(text))
    case .doorStrikeLine:
      if text == "none" { return .doorStrike(nil) }
      return DoorStrikeLine.parse(text).map { .doorStrike($0) }
    case .gpioInput:
      if text == "none" { return .gpioInput(nil) }
      return GPIOLineGrammar.setting(text).map { .gpioInput($0) }
    case .timeoutAction:
      return TimeoutAction(name: text).map { .timeoutAction($0) }
    case .inputMode:
      return InputMode(name: text).map { .inputMode($0) }
    case .gridMotion:
      return GridMotion(name: text).map { .gridMotion($0) }
    case .tpmUse:
      return TPMUse(name: text).map { .tpmUse($0) }
    case .topic:
      let levels = text.split(separator: "/", omittingEmptySubsequences: false)
      guard text.utf8.count <= 128, !levels.contains(where: { $0.isEmpty }),
        !text.unicodeScalars.contains(where: { $0 == "+" || $0 == "#" || $0 == " " || $0.value < 0x20 })
      else { return nil }
      return .optionalText(text)
    case .message(let maximumBytes):
      guard text.utf8.count <= maximumBytes else { return nil }
      return .optionalText(text.isEmpty ? nil : text)
    case .themePreset:
      return ThemePreset(name: text).map { .themePreset($0) }
    case .language:
      return LanguageChoice(name: text).map { .language($0) }
    case .colour:
      if text == "theme" { return .colour(nil) }
      return ValueGrammar.colour(text).map { .colour($0) }
    }
  }

  /// `#RRGGBB` or `#RRGGBBAA`: exactly 6 or 8 hexadecimal digits after the `#`.
  static func colour(_ text: String) -> Color? {
    let bytes = Array(text.utf8)
    guard bytes.count == 7 || bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return nil }
    var channels: [UInt8] = []
    var i = 1
    while i < bytes.count {
      guard let high = HexText.nibble(bytes[i]), let low = HexText.nibble(bytes[i + 1]) else { return nil }
      channels.append(high << 4 | low)
      i += 2
    }
    return Color(channels[0], channels[1], channels[2], channels.count == 4 ? channels[3] : 255)
  }

  /// A program and its arguments as words (`--exec` takes the rest of the command
  /// line already split): the program must be an absolute path, as no PATH search is done.
  public static func program(_ words: [String]) -> SettingValue? {
    if words == ["none"] { return .words([]) }
    guard let program = words.first, program.hasPrefix("/") else { return nil }
    return .words(words)
  }

  /// A whole number, optionally negative, at most 9 digits.
  static func integer(_ text: String) -> Int? { DecimalInteger.parse(text) }

  static func size(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = integer(String(parts[0])), let h = integer(String(parts[1])) else { return nil }
    let sides = LayoutOptions.minimumSide...LayoutOptions.maximumSide
    guard sides.contains(w), sides.contains(h) else { return nil }
    return (w, h)
  }

  /// Whether `text` is a word of yes or no (not 1 or 0, which could be an operand).
  static func isYesOrNoWord(_ text: String) -> Bool {
    boolean(text) != nil && text != "1" && text != "0"
  }

  static func boolean(_ text: String) -> Bool? {
    switch text {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: return nil
    }
  }

  static func mode(_ text: String) -> ModeRequest? {
    let sizeAndRate = text.split(separator: "@", omittingEmptySubsequences: false)
    guard sizeAndRate.count <= 2 else { return nil }
    let size = sizeAndRate[0].split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2 else { return nil }
    var numbers: [Int] = []
    for part in size + (sizeAndRate.count == 2 ? [sizeAndRate[1]] : []) {
      guard part.utf8.count <= 5, !part.hasPrefix("-"), let n = integer(String(part)), n > 0 else { return nil }
      numbers.append(n)
    }
    return ModeRequest(width: numbers[0], height: numbers[1], refresh: numbers.count == 3 ? numbers[2] : nil)
  }

  static func calibration(_ text: String) -> [Float]? {
    var values: [Float] = []
    for field in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
      guard let value = decimal(field) else { return nil }
      values.append(value)
    }
    return values.count == 6 ? values : nil
  }

  /// A decimal number (`-1`, `0.5`, `+.25`) of at most 9 digits, or nil. Floats,
  /// because libinput takes floats; they never enter our own geometry.
  static func decimal(_ text: Substring) -> Float? {
    var negative = false
    var mantissa: Int64 = 0
    var scale: Int64 = 1
    var digits = 0
    var seenPoint = false
    for (i, c) in text.utf8.enumerated() {
      switch c {
      case UInt8(ascii: "-") where i == 0: negative = true
      case UInt8(ascii: "+") where i == 0: break
      case UInt8(ascii: ".") where !seenPoint: seenPoint = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digits += 1
        guard digits <= 9 else { return nil }
        mantissa = mantissa * 10 + Int64(c - UInt8(ascii: "0"))
        if seenPoint { scale *= 10 }
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    let value = Float(mantissa) / Float(scale)
    return negative ? -value : value
  }

  /// Words separated by spaces or tabs (no quoting: use a script for more).
  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0) }
  }

  static func durations(_ text: String) -> [Int64]? {
    var result: [Int64] = []
    for word in words(text) {
      var digits = word
      var unit: Int64 = 1
      switch word.last {
      case "s": unit = 1
      case "m": unit = 60
      case "h": unit = 3600
      case "d": unit = 86_400
      default: break
      }
      if let last = word.last, last == "s" || last == "m" || last == "h" || last == "d" { digits = String(word.dropLast()) }
      guard !digits.hasPrefix("-"), let value = integer(digits) else { return nil }
      result.append(Int64(value) * unit)
    }
    return result.isEmpty ? nil : result
  }

  static func dots(_ text: String) -> DotSequence? {
    var dots: [Int] = []
    for part in text.split(separator: "-", omittingEmptySubsequences: false) {
      guard let n = integer(String(part)), n >= 1, n <= GridLayout.maximumDots, !dots.contains(n) else { return nil }
      dots.append(n)
    }
    return DotSequence(dots)
  }

  /// All digits is a number (1 or more, at most 9 digits: no file has that many
  /// devices), anything else a name.
  static func recordedDevice(_ text: String) -> DeviceInRecording? {
    guard !text.isEmpty else { return nil }
    guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return .name(text) }
    guard text.utf8.count <= 9, let number = integer(text), number >= 1 else { return nil }
    return .number(number)
  }
}
