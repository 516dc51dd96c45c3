import SystemCalls

/// Where the lock's events meet their reporter: the local socket that root makes
/// (systemd's `patternlock-events.socket`), which the lock sends to and
/// `patternlock mqtt` listens on.
package enum EventSocket {
  package static let defaultPath = "/run/patternlock/events.sock"

  /// The socket; debug builds take another from `PATTERNLOCK_EVENT_SOCKET`, so tests
  /// can listen without touching /run.
  package static var path: String {
    #if DEBUG
    if let path = CurrentProcess.environmentVariable("PATTERNLOCK_EVENT_SOCKET") { return path }
    #endif
    return defaultPath
  }
}
