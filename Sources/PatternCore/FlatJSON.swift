/// Reads the one shape of JSON the program writes (`JSONObjectWriter`): a single object
/// whose values are strings, whole numbers, `true` or `false`, no nesting, no spaces.
/// The program's one JSON reader: the audit log, the event socket's lines and the
/// judge's answer. Anything else is nil, so a torn or edited line is reported, never
/// guessed at.
public enum FlatJSON {
  /// The object's keys and values (numbers as their digits, `true` and `false` as
  /// those words), or nil.
  public static func object(_ line: Substring) -> [String: String]? {
    var reader = Reader(bytes: Array(line.utf8))
    return reader.object()
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func object() -> [String: String]? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var fields: [String: String] = [:]
      if take(UInt8(ascii: "}")) { return index == bytes.count ? fields : nil }
      while true {
        guard let key = string(), take(UInt8(ascii: ":")), let value = peek() == UInt8(ascii: "\"") ? string() : literal(),
          fields[key] == nil
        else { return nil }
        fields[key] = value
        if take(UInt8(ascii: ",")) { continue }
        guard take(UInt8(ascii: "}")), index == bytes.count else { return nil }
        return fields
      }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard peek() == byte else { return false }
      index += 1
      return true
    }

    /// A number, `true` or `false`.
    private mutating func literal() -> String? {
      for word in ["true", "false"] where bytes[index...].starts(with: word.utf8) {
        index += word.utf8.count
        return word
      }
      return number()
    }

    private mutating func number() -> String? {
      let start = index
      if peek() == UInt8(ascii: "-") { index += 1 }
      while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
      guard index > start, index - start <= 20 else { return nil }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      var out: [UInt8] = []
      while let byte = peek() {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: out, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard let escaped = peek() else { return nil }
          index += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
          case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
          case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
          case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
          case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "0"), bytes[index + 1] == UInt8(ascii: "0"),
              let high = hexDigit(bytes[index + 2]), let low = hexDigit(bytes[index + 3])
            else { return nil }
            out.append(high << 4 | low)
            index += 4
          default: return nil
          }
        default:
          guard byte >= 0x20 else { return nil }
          out.append(byte)
        }
      }
      return nil
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
      default: return nil
      }
    }
  }
}
