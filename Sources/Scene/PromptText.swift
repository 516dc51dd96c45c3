/// One line of prompt text held inline, so building "Try again in 4:59" each second
/// allocates nothing.
///
/// ASCII only: the prompts are ours, not the user's, and every glyph they use is in the
/// atlas. Text past the capacity is cut (a bug in a prompt, never a crash).
public struct PromptText: Sendable, Equatable {
  /// The longest prompt, in bytes.
  public static let capacity = 48

  private var bytes = InlineArray<48, UInt8>(repeating: 0)
  /// How many bytes are used.
  public private(set) var count = 0

  /// An empty prompt.
  public init() {}

  /// A prompt from a literal.
  public init(_ text: StaticString) {
    append(text)
  }

  /// The byte at a position.
  public subscript(position: Int) -> UInt8 {
    precondition(position >= 0 && position < count, "prompt position out of range")
    return bytes[position]
  }

  /// Appends a literal.
  public mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { buffer in
      for byte in buffer { appendByte(byte) }
    }
  }

  /// Appends a non-negative whole number in decimal, zero-padded to `minimumDigits`.
  public mutating func append(_ value: Int, minimumDigits: Int = 1) {
    var digits = InlineArray<20, UInt8>(repeating: 0)
    var n = max(0, value), used = 0
    repeat {
      digits[used] = UInt8(truncatingIfNeeded: n % 10) + UInt8(ascii: "0")
      n /= 10
      used += 1
    } while n > 0 && used < 20
    while used < minimumDigits && used < 20 {
      digits[used] = UInt8(ascii: "0")
      used += 1
    }
    while used > 0 {
      used -= 1
      appendByte(digits[used])
    }
  }

  private mutating func appendByte(_ byte: UInt8) {
    guard count < PromptText.capacity else { return }
    bytes[count] = byte
    count += 1
  }

  public static func == (a: PromptText, b: PromptText) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a.bytes[i] != b.bytes[i] { return false }
    return true
  }

  /// The text as a String (for tests and logs; allocates).
  public var string: String {
    var s = ""
    for i in 0..<count { s.unicodeScalars.append(Unicode.Scalar(bytes[i])) }
    return s
  }
}
