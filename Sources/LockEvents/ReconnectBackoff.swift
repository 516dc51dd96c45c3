/// How long to wait before connecting again after a failure: 1 s, doubling to a
/// minute; a connection the broker accepts starts it again at 1 s.
public struct ReconnectBackoff {
  public static let firstSeconds = 1
  public static let longestSeconds = 60
  public private(set) var nextSeconds = ReconnectBackoff.firstSeconds

  public init() {}

  /// The wait after this failure (the one after it is twice as long, up to a minute).
  public mutating func failed() -> Int {
    let wait = nextSeconds
    nextSeconds = min(nextSeconds * 2, ReconnectBackoff.longestSeconds)
    return wait
  }

  public mutating func succeeded() { nextSeconds = ReconnectBackoff.firstSeconds }
}
