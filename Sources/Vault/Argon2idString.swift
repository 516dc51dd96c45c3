import CSodium
import PatternCore

/// The parts of a `crypto_pwhash_str` string, `$argon2id$v=19$m=32768,t=2,p=1$<salt>$<tag>`:
/// what judging needs to run Argon2id itself, once per entered pattern, and use the one
/// output both to verify and to fingerprint (`PatternDerivation`).
///
/// Parsed strictly: only what libsodium writes (version 19, one lane, a 16-byte salt,
/// unpadded standard base64 that encodes back to the same text), so a string that
/// `crypto_pwhash_str_verify` would read differently is refused, never guessed at.
struct Argon2idString: Equatable {
  /// `m`: the memory cost in KiB.
  let memoryKiB: Int
  /// `t`: the passes.
  let passes: Int
  /// The random salt, 16 bytes.
  let salt: [UInt8]
  /// Argon2id's output for the enrolled pattern.
  let tag: [UInt8]

  /// The parts of `text`; nil unless it is exactly such a string.
  init?(_ text: String) {
    let fields = text.split(separator: "$", omittingEmptySubsequences: false)
    guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == "v=19" else { return nil }
    let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
    guard costs.count == 3, costs[2] == "p=1",
      let memory = Argon2idString.number(costs[0], key: "m="), let passes = Argon2idString.number(costs[1], key: "t="),
      passes >= 1, memory >= 8,
      let salt = Argon2idString.base64(fields[4]), salt.count == Int(crypto_pwhash_argon2id_saltbytes()),
      let tag = Argon2idString.base64(fields[5]), tag.count >= 16 && tag.count <= 64
    else { return nil }
    memoryKiB = memory
    self.passes = passes
    self.salt = salt
    self.tag = tag
  }

  /// The string `crypto_pwhash_str` would write for `tag` made with `setting` (one
  /// lane, version 19): a pattern hashed again with an existing salt reads as any other.
  static func text(setting: Argon2idSetting, tag: [UInt8]) -> String {
    "$argon2id$v=19$m=\(setting.memoryKiB),t=\(setting.passes),p=1$" + base64(setting.salt) + "$" + base64(tag)
  }

  /// Unpadded standard base64, as `crypto_pwhash_str` writes it.
  private static func base64(_ bytes: [UInt8]) -> String {
    let variant = Int32(sodium_base64_VARIANT_ORIGINAL_NO_PADDING)
    var encoded = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
    _ = sodium_bin2base64(&encoded, encoded.count, bytes, bytes.count, variant)
    var text = ""
    for c in encoded {
      if c == 0 { break }
      text.unicodeScalars.append(Unicode.Scalar(UInt8(bitPattern: c)))
    }
    return text
  }

  /// The decimal after `key`, without sign or leading zeros, at most 9 digits.

  /// The salt and cost, for running Argon2id again over an entered pattern.
  var setting: Argon2idSetting {
    Argon2idSetting(memoryKiB: memoryKiB, passes: passes, salt: salt, outputLength: tag.count)
  }

  private static func number(_ field: Substring, key: String) -> Int? {
    guard field.hasPrefix(key) else { return nil }
    let digits = field.dropFirst(key.utf8.count)
    guard let value = StateFileCodec.number(digits), digits.utf8.count <= 9 else { return nil }
    return Int(value)
  }

  /// Unpadded standard base64 that encodes back to exactly `field`.
  private static func base64(_ field: Substring) -> [UInt8]? {
    let text = String(field)
    let variant = Int32(sodium_base64_VARIANT_ORIGINAL_NO_PADDING)
    guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
    var bytes = [UInt8](repeating: 0, count: 96)
    var length = 0
    let status = text.withCString { pointer in
      sodium_base642bin(&bytes, bytes.count, pointer, text.utf8.count, nil, &length, nil, variant)
    }
    guard status == 0 else { return nil }
    bytes.removeSubrange(length...)
    var encoded = [CChar](repeating: 0, count: sodium_base64_encoded_len(length, variant))
    _ = sodium_bin2base64(&encoded, encoded.count, bytes, length, variant)
    var roundTrip = ""
    for c in encoded {
      if c == 0 { break }
      roundTrip.unicodeScalars.append(Unicode.Scalar(UInt8(bitPattern: c)))
    }
    return roundTrip == text ? bytes : nil
  }
}
