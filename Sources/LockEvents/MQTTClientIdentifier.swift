/// The client id `patternlock mqtt` gives the broker: new at each start, so nobody can
/// log in under it to push the reporter off its connection (a broker drops the older of
/// two clients with one id), and at most 23 letters and digits, the ids every MQTT
/// 3.1.1 broker must accept.
public enum MQTTClientIdentifier {
  public static let maximumLength = 23
  /// Random bytes in an id: 64 bits, written as 16 hex digits.
  public static let randomByteCount = 8
  /// How much of the device's node name starts the id, so an administrator can tell in
  /// the broker's log which panel it is.
  public static let nodeLength = maximumLength - 2 - 2 * randomByteCount

  /// `pl`, the first letters and digits of `node` (at most `nodeLength`), then `random`
  /// in hex (`randomByteCount` bytes: more are not used).
  public static func make(node: String, random: [UInt8]) -> String {
    precondition(random.count >= randomByteCount, "the client id needs \(randomByteCount) random bytes")
    var id = "pl"
    for scalar in node.unicodeScalars
    where id.unicodeScalars.count < 2 + nodeLength && isLetterOrDigit(scalar) {
      id.unicodeScalars.append(scalar)
    }
    let hexDigits = Array("0123456789abcdef".unicodeScalars)
    for byte in random.prefix(randomByteCount) {
      id.unicodeScalars.append(hexDigits[Int(byte >> 4)])
      id.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
    }
    return id
  }

  private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": return true
    default: return false
    }
  }
}
