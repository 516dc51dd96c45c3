/// How long to wait before connecting again after a failure: 1 s, doubling to a
/// minute; a connection the broker accepts starts it again at 1 s.
struct ReconnectBackoff {
  static let firstSeconds = 1
  static let longestSeconds = 60
  private(set) var nextSeconds = ReconnectBackoff.firstSeconds

  /// The wait after this failure (the one after it is twice as long, up to a minute).
  mutating func failed() -> Int {
    let wait = nextSeconds
    nextSeconds = min(nextSeconds * 2, ReconnectBackoff.longestSeconds)
    return wait
  }

  mutating func succeeded() { nextSeconds = ReconnectBackoff.firstSeconds }
}
