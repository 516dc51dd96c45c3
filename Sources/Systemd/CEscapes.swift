import PatternCore

/// systemd's C escapes (`cescape`), undone: how `Message=` in a password request
/// carries newlines, quotes and bytes outside printable ASCII.
enum CEscapes {
  /// `text` with `\n`, `\\`, `\xHH`, `\NNN` (octal) and the other C escapes replaced by
  /// the bytes they stand for; nil for a broken escape or bytes that are not UTF-8.
  static func unescape(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      guard byte == UInt8(ascii: "\\") else {
        bytes.append(byte)
        continue
      }
      guard let kind = iterator.popFirst() else { return nil }
      switch kind {
      case UInt8(ascii: "a"): bytes.append(0x07)
      case UInt8(ascii: "b"): bytes.append(0x08)
      case UInt8(ascii: "f"): bytes.append(0x0C)
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "v"): bytes.append(0x0B)
      case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): bytes.append(kind)
      case UInt8(ascii: "x"):
        guard let high = iterator.popFirst().flatMap(HexText.nibble), let low = iterator.popFirst().flatMap(HexText.nibble) else {
          return nil
        }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "0")...UInt8(ascii: "3"):
        guard let middle = iterator.popFirst().flatMap(octalValue), let low = iterator.popFirst().flatMap(octalValue) else {
          return nil
        }
        bytes.append((kind - UInt8(ascii: "0")) << 6 | middle << 3 | low)
      default: return nil
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func octalValue(_ byte: UInt8) -> UInt8? {
    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) ? byte - UInt8(ascii: "0") : nil
  }
}
