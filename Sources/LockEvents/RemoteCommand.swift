/// A command from the broker's command topics, for the running lock: decided from the
/// message alone, before anything reaches the lock.
public enum RemoteCommand: Equatable {
  case lock
  case unlock
  /// The backlight's normal level in percent of its range (1 to 100), from the
  /// brightness entity's command topic; the lock clamps it to its own bounds.
  case brightness(Int)

  /// What the bridge does with a message on the command topic.
  public enum Verdict: Equatable {
    case take(RemoteCommand)
    case ignore(Refusal)
  }

  /// Why a message on the command topic is not a command.
  public enum Refusal: Equatable {
    /// The broker replayed a message it keeps, as it does to every new subscription,
    /// so one kept UNLOCK would open the door again at each reconnect.
    case retained
    /// Longer than the record keeps, hence no command's exact bytes.
    case truncated
    /// Neither LOCK nor UNLOCK, byte for byte.
    case unknown
    /// On the brightness topic: not a whole percent from 1 to 100 written plainly.
    case notAPercent
  }

  /// The brightness entity's bounds and step, in percent.
  public static let brightnessRange = 1...100

  /// The payload as Home Assistant sends it.
  public var payload: String {
    switch self {
    case .lock: return "LOCK"
    case .unlock: return "UNLOCK"
    case .brightness(let percent): return "\(percent)"
    }
  }

  /// How the journal names it: `LOCK`, `UNLOCK`, `brightness 40`.
  public var journalName: String {
    switch self {
    case .lock, .unlock: return payload
    case .brightness(let percent): return "brightness \(percent)"
    }
  }

  /// The line the running lock takes on its event link.
  public var line: String {
    switch self {
    case .lock: return "lock"
    case .unlock: return "unlock"
    case .brightness(let percent): return "brightness \(percent)"
    }
  }

  /// A line the running lock takes on its event link, or nil for anything else: the
  /// same exact bytes as `line` gives, so the lock trusts no looser form than the
  /// bridge sends.
  public init?<Bytes: Collection>(line: Bytes) where Bytes.Element == UInt8 {
    if line.elementsEqual("lock".utf8) {
      self = .lock
    } else if line.elementsEqual("unlock".utf8) {
      self = .unlock
    } else {
      let prefix = "brightness ".utf8
      guard line.starts(with: prefix), let percent = RemoteCommand.percent(line.dropFirst(prefix.count)) else { return nil }
      self = .brightness(percent)
    }
  }

  /// The command in a message on the command topic, or why there is none. Only a
  /// message just published counts, and only the exact bytes `LOCK` or `UNLOCK`: no
  /// NUL, newline or anything else before or after.
  public static func from(payload: [UInt8], truncated: Bool, retained: Bool) -> Verdict {
    if retained { return .ignore(.retained) }
    if truncated { return .ignore(.truncated) }
    for command in [RemoteCommand.lock, .unlock] where payload.elementsEqual(command.payload.utf8) {
      return .take(command)
    }
    return .ignore(.unknown)
  }

  /// The brightness in a message on the brightness command topic, or why there is
  /// none: as strict as LOCK and UNLOCK, only a message just published, only decimal
  /// digits, no sign, space, point, leading zero or anything else, from 1 to 100.
  public static func brightness(payload: [UInt8], truncated: Bool, retained: Bool) -> Verdict {
    if retained { return .ignore(.retained) }
    if truncated { return .ignore(.truncated) }
    guard let percent = percent(payload) else { return .ignore(.notAPercent) }
    return .take(.brightness(percent))
  }

  /// `bytes` as a percent written plainly (`1` to `100`), or nil.
  static func percent<Bytes: Collection>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8 {
    guard !bytes.isEmpty, bytes.count <= 3, bytes.first != UInt8(ascii: "0") else { return nil }
    var value = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return brightnessRange.contains(value) ? value : nil
  }
}
