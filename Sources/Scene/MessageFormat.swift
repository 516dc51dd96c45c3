/// The printf subset of the catalogue's texts, read as the text is drawn: `%d`,
/// `%02d` (zero-padded to a width), `%2$d` (the second number, wherever the language
/// puts it) and `%%`. The catalogue's compiler accepts nothing else, and msgfmt checks
/// that a translation uses the numbers its English text does.
///
/// Walks the UTF-8 of a `StaticString` in place and hands on one scalar at a time, so
/// a countdown is formatted every second without allocating.
enum MessageFormat {
  /// Calls `body` with each scalar of `text`, its placeholders replaced by `numbers`.
  static func forEachScalar(
    of text: StaticString, numbers: InlineArray<3, Int>, _ body: (Unicode.Scalar) -> Void
  ) {
    text.withUTF8Buffer { bytes in
      var i = 0
      var sequential = 0
      while i < bytes.count {
        let byte = bytes[i]
        if byte == UInt8(ascii: "%") && i + 1 < bytes.count {
          i += 1
          if bytes[i] == UInt8(ascii: "%") {
            body("%")
            i += 1
            continue
          }
          var value = readNumber(bytes, &i)
          var position = -1
          if i < bytes.count && bytes[i] == UInt8(ascii: "$") {
            position = value - 1
            i += 1
            value = readNumber(bytes, &i)
          }
          // The width (`02`): always padded with zeros, the only padding the texts use.
          let width = value
          i += 1  // the 'd'
          if position < 0 {
            position = sequential
            sequential += 1
          }
          let number = position >= 0 && position < 3 ? numbers[position] : 0
          forEachDigit(of: number, minimumDigits: width, body)
          continue
        }
        // UTF-8: the lead byte says how many continuation bytes follow.
        var scalar = UInt32(byte)
        var extra = 0
        if byte >= 0xF0 {
          scalar = UInt32(byte & 0x07)
          extra = 3
        } else if byte >= 0xE0 {
          scalar = UInt32(byte & 0x0F)
          extra = 2
        } else if byte >= 0xC0 {
          scalar = UInt32(byte & 0x1F)
          extra = 1
        }
        i += 1
        while extra > 0 && i < bytes.count {
          scalar = scalar << 6 | UInt32(bytes[i] & 0x3F)
          i += 1
          extra -= 1
        }
        body(Unicode.Scalar(scalar) ?? "?")
      }
    }
  }

  /// A non-negative whole number in decimal, zero-padded to `minimumDigits`.
  static func forEachDigit(of value: Int, minimumDigits: Int, _ body: (Unicode.Scalar) -> Void) {
    var digits = InlineArray<20, UInt8>(repeating: 0)
    var n = max(0, value), used = 0
    repeat {
      digits[used] = UInt8(truncatingIfNeeded: n % 10)
      n /= 10
      used += 1
    } while n > 0 && used < 20
    while used < minimumDigits && used < 20 {
      digits[used] = 0
      used += 1
    }
    while used > 0 {
      used -= 1
      body(Unicode.Scalar(UInt8(ascii: "0") + digits[used]))
    }
  }

  /// Reads decimal digits from `i` on (none: 0).
  private static func readNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int {
    var value = 0
    while i < bytes.count && isDigit(bytes[i]) {
      value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
      i += 1
    }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
