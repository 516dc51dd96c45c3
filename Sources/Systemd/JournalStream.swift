import SystemCalls

/// Where programs started detached (hooks, the door strike's pulse) write: the systemd
/// journal's stream socket.
public enum JournalStream {
  /// journald's socket; debug builds take another from `PATTERNLOCK_TEST_JOURNAL_SOCKET`,
  /// so a test can listen in its place and see whose credentials a hook connects with.
  public static var socketPath: String {
    #if DEBUG
    if let path = CurrentProcess.environmentVariable("PATTERNLOCK_TEST_JOURNAL_SOCKET") { return path }
    #endif
    return "/run/systemd/journal/stdout"
  }
}
