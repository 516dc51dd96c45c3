/// A command from the broker's command topic, for the running lock: decided from the
/// message alone, before anything reaches the lock.
public enum RemoteCommand: Equatable {
  case lock
  case unlock

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
  }

  /// The payload as Home Assistant sends it.
  public var payload: String {
    switch self {
    case .lock: return "LOCK"
    case .unlock: return "UNLOCK"
    }
  }

  /// The line the running lock takes on its event link.
  public var line: String {
    switch self {
    case .lock: return "lock"
    case .unlock: return "unlock"
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
}
