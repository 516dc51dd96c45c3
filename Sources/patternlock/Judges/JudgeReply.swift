/// The one JSON line `patternlock judge` answers (`JudgeAnswer`), read back by the
/// lock that asked: a flat object of strings, whole numbers and `true`. Anything else
/// is nil, and a lock that cannot read its answer does not unlock.
struct JudgeReply: Equatable {
  var result: String
  var retryInSeconds: Int64?
  var triesLeft: Int?
  var untilReset = false
  var reason: String?

  /// The longest answer read: a refusal's reason is one line of the vault's messages.
  static let maximumBytes = 4096

  static func parse(_ line: [UInt8]) -> JudgeReply? {
    var reader = Reader(bytes: line)
    guard let fields = reader.object() else { return nil }
    var reply = JudgeReply(result: "")
    for (key, value) in fields {
      switch (key, value) {
      case ("result", .text(let text)): reply.result = text
      case ("reason", .text(let text)): reply.reason = text
      case ("retry_in_s", .number(let n)): reply.retryInSeconds = n
      case ("tries_left", .number(let n)): reply.triesLeft = Int(n)
      case ("until_reset", .yes): reply.untilReset = true
      case ("failures", .number): break
      default: return nil
      }
    }
    return reply.result.isEmpty ? nil : reply
  }

  enum Value: Equatable {
    case text(String)
    case number(Int64)
    case yes
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func object() -> [(String, Value)]? {
      var fields: [(String, Value)] = []
      skipSpace()
      guard take(UInt8(ascii: "{")) else { return nil }
      skipSpace()
      if take(UInt8(ascii: "}")) { return atEnd() ? fields : nil }
      while true {
        skipSpace()
        guard let key = string() else { return nil }
        skipSpace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipSpace()
        guard let value = value() else { return nil }
        fields.append((key, value))
        skipSpace()
        if take(UInt8(ascii: "}")) { return atEnd() ? fields : nil }
        guard take(UInt8(ascii: ",")) else { return nil }
      }
    }

    private mutating func atEnd() -> Bool {
      skipSpace()
      return index == bytes.count
    }

    private mutating func skipSpace() {
      while index < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains(bytes[index]) {
        index += 1
      }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    private mutating func value() -> Value? {
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "\"") { return string().map { .text($0) } }
      if bytes[index...].starts(with: Array("true".utf8)) {
        index += 4
        return .yes
      }
      var n: Int64 = 0
      var digits = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
        n = n * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
        index += 1
        digits += 1
      }
      return digits > 0 ? .number(n) : nil
    }

    private mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      var text: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
        if byte == UInt8(ascii: "\\") {
          guard index < bytes.count else { return nil }
          let escaped = bytes[index]
          index += 1
          switch escaped {
          case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
          case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
          case UInt8(ascii: "u"):
            // The writer escapes only control characters this way: kept as '?'.
            guard index + 4 <= bytes.count else { return nil }
            index += 4
            text.append(UInt8(ascii: "?"))
          default: text.append(escaped)
          }
        } else {
          text.append(byte)
        }
      }
      return nil
    }
  }
}
