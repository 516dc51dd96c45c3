import CSodium
import PatternCore
import Vault

/// The state files' decoders (`AttemptsFile.decode`, `EnrolledPattern.decode`) on the
/// input as it is, and again with its checksum line made right.
///
/// Both files end in a BLAKE2b checksum of the bytes before it, which random mutation
/// practically never gets right, so nearly every input would stop at the checksum
/// check. The second pass drops a last `checksum ` line, if any, and appends the
/// correct one: the fuzzer then reaches the header, key and number parsing behind it.
/// The checksum is computed here with libsodium, as the file format documents it,
/// rather than through Vault's internals, so only the public decoders are called.
public enum StateFilesHarness {
  /// Runs one input.
  ///
  /// - Parameter bytes: a state file's contents (any bytes).
  public static func run(_ bytes: [UInt8]) {
    decode(bytes)
    decode(resealed(bytes))
  }

  private static func decode(_ bytes: [UInt8]) {
    _ = AttemptsFile.decode(bytes).record(failingClosedWith: .android)
    do throws(VaultError) {
      _ = try EnrolledPattern.decode(bytes, path: "fuzz")
    } catch {
      _ = error.message
    }
  }

  /// `bytes` without a final `checksum ...` line, with a newline at the end, then the
  /// `checksum <32 hex>` line of that body.
  static func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var body = bytes
    if body.last == UInt8(ascii: "\n") {
      let lastLineStart = (body.dropLast().lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
      if body[lastLineStart...].starts(with: Array("checksum ".utf8)) { body.removeSubrange(lastLineStart...) }
    }
    if let last = body.last, last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
    var sum = [UInt8](repeating: 0, count: 16)
    _ = crypto_generichash(&sum, sum.count, body, UInt64(body.count), nil, 0)
    body.append(contentsOf: Array("checksum \(HexText.encode(bytes: sum))\n".utf8))
    return body
  }
}
