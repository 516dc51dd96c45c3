import PatternCore

/// The shared text layout of both state files: a header line naming the file kind and
/// format version, `key value` lines, and a last line `checksum <32 hex>` (BLAKE2b-128
/// of every byte before it). Text so an administrator can read it with `cat`; a
/// checksum so a flipped bit or a cut-off write is detected rather than believed.
///
/// Parsing is strict: the exact header, the exact keys in the exact order, one space,
/// decimal numbers without signs or leading zeros, `\n` line ends, nothing after the
/// checksum line. Anything else is damage.
enum StateFileCodec {
  /// The format version a kind is written in unless it says otherwise.
  static let version = 1

  /// The file's bytes: header, lines, checksum.
  static func seal(kind: String, version: Int = StateFileCodec.version, lines: [String]) -> [UInt8] {
    var text = "\(kind) \(version)\n"
    for line in lines { text += line + "\n" }
    var bytes = Array(text.utf8)
    let sum = Sodium.checksum(bytes[...])
    bytes.append(contentsOf: Array("checksum \(HexText.encode(bytes: sum))\n".utf8))
    return bytes
  }

  /// The lines between header and checksum, or a description of the damage.
  static func open(_ bytes: [UInt8], kind: String) -> Result<[String], StateFileDamage> {
    switch open(bytes, kind: kind, versions: [version]) {
    case .success(let opened): return .success(opened.lines)
    case .failure(let damage): return .failure(damage)
    }
  }

  /// The version and the lines between header and checksum of a file in one of
  /// `versions` (the newest last), or a description of the damage.
  static func open(_ bytes: [UInt8], kind: String, versions: [Int]) -> Result<(version: Int, lines: [String]), StateFileDamage> {
    let newest = versions.last ?? version
    guard !bytes.isEmpty else { return .failure(StateFileDamage("it is empty")) }
    guard bytes.last == UInt8(ascii: "\n") else {
      return .failure(StateFileDamage("its last line is unfinished (cut short by a crash or a full disk?)"))
    }
    for byte in bytes where byte < 0x20 && byte != UInt8(ascii: "\n") || byte >= 0x7f {
      return .failure(StateFileDamage("it holds bytes that are not printable ASCII"))
    }
    var lines: [String] = []
    var start = 0
    for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
      lines.append(String(decoding: bytes[start..<i], as: UTF8.self))
      start = i + 1
    }
    // The header first: a readable version mismatch beats "checksum mismatch".
    let header = lines[0]
    let prefix = kind + " "
    guard header.hasPrefix(prefix) else {
      return .failure(StateFileDamage("its first line is not '\(kind) \(newest)'"))
    }
    let versionText = String(header.dropFirst(prefix.count))
    guard let found = versions.first(where: { "\($0)" == versionText }) else {
      return .failure(StateFileDamage("its format version '\(clip(versionText))' is not \(newest) (written by another patternlock version?)"))
    }
    guard lines.count >= 2, lines[lines.count - 1].hasPrefix("checksum ") else {
      return .failure(StateFileDamage("it has no checksum line (cut short?)"))
    }
    let checksumLine = lines[lines.count - 1]
    let bodyLength = bytes.count - checksumLine.utf8.count - 1
    let expected = "checksum " + HexText.encode(bytes: Sodium.checksum(bytes[0..<bodyLength]))
    guard checksumLine == expected else {
      return .failure(StateFileDamage("its checksum does not match its contents (changed or damaged)"))
    }
    return .success((found, Array(lines[1..<(lines.count - 1)])))
  }

  /// The value of `key value`, when the line has exactly that key.
  static func value(_ line: String, key: String) -> String? {
    let prefix = key + " "
    guard line.hasPrefix(prefix) else { return nil }
    return String(line.dropFirst(prefix.count))
  }

  /// A canonical decimal number (no sign, no leading zero, at most 18 digits).
  static func number(_ text: Substring) -> Int64? {
    let utf8 = Array(text.utf8)
    guard !utf8.isEmpty, utf8.count <= 18, utf8.count == 1 || utf8[0] != UInt8(ascii: "0") else { return nil }
    var value: Int64 = 0
    for c in utf8 {
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(c - UInt8(ascii: "0"))
    }
    return value
  }

  static func clip(_ text: String) -> String {
    text.utf8.count <= 20 ? text : String(text.prefix(20)) + "..."
  }
}

/// What is wrong with a state file, in words for the log.
struct StateFileDamage: Error, Equatable {
  let problem: String
  init(_ problem: String) { self.problem = problem }
}
