/// Hexadecimal text for the state files, written by hand because Embedded Swift has
/// no `String(_:radix:)` formatting guarantees worth depending on for a file format
/// and no Foundation.
public enum HexText {
  static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  /// 16 lower-case hex digits, zero-padded.
  public static func encode(_ value: UInt64) -> String {
    var text = ""
    var shift = 60
    while shift >= 0 {
      text.unicodeScalars.append(Unicode.Scalar(digits[Int((value >> UInt64(shift)) & 15)]))
      shift -= 4
    }
    return text
  }

  /// Lower-case hex of bytes, two digits each.
  public static func encode(bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
      text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
      text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 15)]))
    }
    return text
  }

  /// The value of 1 to 16 hex digits; nil for anything else.
  public static func decode(_ text: ArraySlice<UInt8>) -> UInt64? {
    guard !text.isEmpty, text.count <= 16 else { return nil }
    var value: UInt64 = 0
    for c in text {
      guard let nibble = nibble(c) else { return nil }
      value = value << 4 | UInt64(nibble)
    }
    return value
  }

  /// The bytes of an even number of hex digits; nil for anything else.
  public static func decodeBytes(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count / 2)
    var i = 0
    while i < utf8.count {
      guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
      bytes.append(hi << 4 | lo)
      i += 2
    }
    return bytes
  }

  /// The value of one hex digit, either case; nil for anything else.
  public static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
