import CShim

/// Where hooks and the strike pulse write: the systemd journal's stream socket.
enum JournalStream {
  /// journald's socket; debug builds take another from `PATTERNLOCK_TEST_JOURNAL_SOCKET`,
  /// so a test can listen in its place and see whose credentials a hook connects with.
  static var socketPath: String {
    #if DEBUG
    if let path = pl_getenv("PATTERNLOCK_TEST_JOURNAL_SOCKET") { return String(cString: path) }
    #endif
    return "/run/systemd/journal/stdout"
  }
}
