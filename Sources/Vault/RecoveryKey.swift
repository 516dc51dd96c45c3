import PatternCore

/// The key that lifts the TPM's count of wrong patterns: 120 random bits, shown once at
/// enrolment as 24 characters of base32 in groups of four (`7KQM-3XPA-...`), never
/// stored on the device. The TPM's recovery object takes BLAKE2b-256 of the bytes as its
/// authValue.
///
/// Why 120 bits and no counter on it: each guess of the key costs a TPM command
/// (milliseconds), so 2^119 tries on average is beyond any attack, and a dictionary-
/// attack lockout on the key would let anyone who can run commands lock the owner out of
/// recovery too.
public struct RecoveryKey: ~Copyable {
  static let byteCount = 15
  /// Crockford's base32 alphabet: no I, L, O or U, so nothing is misread when typed.
  static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
  private let bytes: SecretBytes

  private init(bytes: consuming SecretBytes) { self.bytes = bytes }

  /// A fresh key from the kernel's random source.
  ///
  /// - Throws: `VaultError.sodiumUnavailable`.
  static func generate() throws(VaultError) -> RecoveryKey {
    RecoveryKey(bytes: try Sodium.randomSecret(byteCount))
  }

  /// Reads a key as typed: case, spaces and dashes do not matter, and the look-alikes
  /// I, L (as 1) and O (as 0) are accepted as Crockford's base32 allows.
  ///
  /// - Returns: nil when it is not 24 base32 characters.
  public static func parse(_ text: borrowing SecretBytes) -> RecoveryKey? {
    var value = SecretBytes(capacity: byteCount)
    var accumulator: UInt32 = 0
    var bits = 0
    var characters = 0
    for i in 0..<text.count {
      var c = text[i]
      if c == UInt8(ascii: "-") || c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") { continue }
      if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") { c -= 32 }
      if c == UInt8(ascii: "I") || c == UInt8(ascii: "L") { c = UInt8(ascii: "1") }
      if c == UInt8(ascii: "O") { c = UInt8(ascii: "0") }
      guard let digit = alphabet.firstIndex(of: c) else { return nil }
      characters += 1
      guard characters <= byteCount * 8 / 5 else { return nil }
      accumulator = (accumulator << 5) | UInt32(digit)
      bits += 5
      if bits >= 8 {
        bits -= 8
        value.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard characters == byteCount * 8 / 5, value.count == byteCount else { return nil }
    return RecoveryKey(bytes: value)
  }

  /// The key as shown to the owner.
  public var text: String {
    var text = ""
    var accumulator: UInt32 = 0
    var bits = 0
    var written = 0
    for i in 0..<bytes.count {
      accumulator = (accumulator << 8) | UInt32(bytes[i])
      bits += 8
      while bits >= 5 {
        bits -= 5
        if written > 0 && written % 4 == 0 { text += "-" }
        text.unicodeScalars.append(Unicode.Scalar(RecoveryKey.alphabet[Int((accumulator >> UInt32(bits)) & 31)]))
        written += 1
      }
    }
    return text
  }

  /// The recovery object's authValue (32 bytes) for `body`.
  func withAuthorisation<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    var auth = SecretBytes(capacity: 32)
    bytes.withBytes { key in
      let digest = Sodium.digest(key, length: 32)
      for byte in digest { auth.append(byte) }
    }
    return try auth.withBytes(body)
  }
}
