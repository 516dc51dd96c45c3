/// How a child process ended: it exited with a status, or a signal ended it.
public enum TerminationStatus: Hashable, Sendable {
  /// exit(3) with this status, 0 to 255.
  case exited(Int32)
  /// Ended by this signal.
  case signalled(Signal)

  /// What `pl_wait_child` reported: an exit status, or -1 and the signal.
  init(exitCode: Int32, signal: Int32) {
    self = exitCode >= 0 ? .exited(exitCode) : .signalled(Signal(rawValue: signal))
  }

  /// Whether it exited with status 0.
  public var isSuccess: Bool { self == .exited(0) }

  /// The number a shell's `$?` gives for it: the exit status, or 128 plus the signal.
  public var shellStatus: Int32 {
    switch self {
    case .exited(let status): return status
    case .signalled(let signal): return 128 + signal.rawValue
    }
  }
}
