import PatternCore

/// What the first unlock after an enrolment learnt about the owner's pattern
/// (`pattern-check` in the state directory): whether the enrolment guard in force then
/// refuses it. Never the pattern, nor anything from which it could be told apart from
/// the other patterns of the list.
///
/// ```
/// patternlock-pattern-check 1
/// common yes
/// blocklist 1000
/// checksum <32 hex digits>
/// ```
///
/// A pattern enrolled before the guard existed, or while it was off, keeps unlocking;
/// this file is how `status` says it should be replaced. Storing a new pattern removes
/// the file, so the next unlock looks again; while it exists no unlock looks.
public struct PatternCheck: Equatable, Sendable {
  /// The file's name in the state directory.
  public static let name = "pattern-check"
  static let kind = "patternlock-pattern-check"

  /// Whether the guard refuses the owner's pattern.
  public let isCommon: Bool
  /// The size of the list it was checked against.
  public let blocklistSize: Int

  public init(isCommon: Bool, blocklistSize: Int) {
    self.isCommon = isCommon
    self.blocklistSize = blocklistSize
  }

  /// The file's bytes.
  public func encode() -> [UInt8] {
    StateFileCodec.seal(kind: PatternCheck.kind, lines: ["common \(isCommon ? "yes" : "no")", "blocklist \(blocklistSize)"])
  }

  /// The check a file's bytes hold, or nil when they are not one (then it is looked at
  /// again at the next unlock: the file only ever adds advice).
  public static func decode(_ bytes: [UInt8]) -> PatternCheck? {
    guard case .success(let lines) = StateFileCodec.open(bytes, kind: kind), lines.count == 2,
      let common = StateFileCodec.value(lines[0], key: "common"), common == "yes" || common == "no",
      let sizeText = StateFileCodec.value(lines[1], key: "blocklist"), let size = StateFileCodec.number(sizeText[...]),
      size > 0
    else { return nil }
    return PatternCheck(isCommon: common == "yes", blocklistSize: Int(size))
  }

  /// The check stored in `directory`, nil when there is none (or none to believe).
  public static func load(from directory: borrowing StateDirectory) -> PatternCheck? {
    guard case .bytes(let bytes) = directory.read(name) else { return nil }
    return decode(bytes)
  }

  /// Stores the check crash-safely; the caller holds the directory's lock.
  public func save(to directory: borrowing StateDirectory) throws(VaultError) {
    try directory.write(PatternCheck.name, encode())
  }
}
