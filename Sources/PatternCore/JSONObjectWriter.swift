/// Builds one JSON object on one line, with keys in the order they are written.
///
/// Output for tools must be stable byte for byte across architectures and runs, so
/// this writes numbers itself (fixed point in decimal, never via floating point).
public struct JSONObjectWriter {
  public private(set) var text = "{"
  private var needsComma = false

  public init() {}

  private mutating func key(_ name: String) {
    if needsComma { text += "," }
    needsComma = true
    text += "\""
    text += name
    text += "\":"
  }

  public mutating func add(_ name: String, _ value: Int) {
    key(name)
    text += "\(value)"
  }

  public mutating func add(_ name: String, _ value: Fixed16) {
    key(name)
    text += value.decimalString
  }

  public mutating func add(_ name: String, string value: String) {
    key(name)
    JSONObjectWriter.appendQuoted(value, to: &text)
  }

  /// Adds a value that is already JSON (an object or an array).
  public mutating func add(_ name: String, raw json: String) {
    key(name)
    text += json
  }

  /// The finished object.
  public var json: String { text + "}" }

  /// Appends `value` as a JSON string literal.
  public static func appendQuoted(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\t": text += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
          text += "\\u00"
          text.append(hex[Int(scalar.value >> 4)])
          text.append(hex[Int(scalar.value & 15)])
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    text += "\""
  }
}

extension Fixed16 {
  /// The number in decimal with at most four fraction digits, trailing zeros dropped
  /// (`28.8`, `96`, `-0.5`).
  public var decimalString: String {
    let negative = raw < 0
    let magnitude = UInt64(raw.magnitude)
    // Round to 1/10000 once, so 0.99996 becomes 1 rather than 0.10000.
    let tenThousandths = (magnitude * 10000 + 32768) >> 16
    let whole = tenThousandths / 10000
    var fraction = tenThousandths % 10000
    var text = negative && tenThousandths != 0 ? "-" : ""
    text += "\(whole)"
    if fraction != 0 {
      var digits = 4
      while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
      }
      var fractionText = "\(fraction)"
      while fractionText.utf8.count < digits { fractionText = "0" + fractionText }
      text += "." + fractionText
    }
    return text
  }
}
