import CShim

/// The signals a loop takes through a descriptor (signalfd(2)) instead of handlers:
/// SIGINT, SIGTERM, SIGUSR1 and SIGUSR2, blocked in the calling thread while this value
/// lives, so none interrupts a half-drawn frame and each is read when the loop gets to it.
public struct SignalDescriptor: ~Copyable {
  private let file: FileDescriptor

  /// Blocks the four signals and opens the descriptor that reports them (non-blocking,
  /// close-on-exec; `pl_signalfd_open`).
  ///
  /// - Throws: sigprocmask(2)'s or signalfd(2)'s `Errno`.
  public init() throws(Errno) {
    let fd = pl_signalfd_open()
    guard fd >= 0 else {
      let errno = Errno.current
      SignalMask.unblockStopSignals()
      throw errno
    }
    file = FileDescriptor(owning: fd)
  }

  deinit {
    // The descriptor closes after this. Signals still pending then are delivered as
    // they would be after closing first: a signalfd does not hold them, the thread does.
    SignalMask.unblockStopSignals()
  }

  /// The descriptor to poll, valid while this value lives.
  public var rawValue: Int32 { file.rawValue }

  /// Takes the next queued signal (`pl_signalfd_read`), retrying `EINTR`.
  ///
  /// - Returns: the signal, or nil when none is queued.
  /// - Throws: read(2)'s `Errno`.
  public func next() throws(Errno) -> Signal? {
    let fd = file.rawValue
    let number = try retryingInterrupts { pl_signalfd_read(fd) }
    return number > 0 ? Signal(rawValue: number) : nil
  }
}

/// The calling thread's mask for the signals a `SignalDescriptor` reads.
public enum SignalMask {
  /// Blocks SIGINT, SIGTERM, SIGUSR1 and SIGUSR2 without a descriptor
  /// (`pl_signals_block`): from here on they wait for one to read them.
  public static func blockLoopSignals() { pl_signals_block() }

  /// Unblocks SIGINT and SIGTERM (`pl_signals_unblock`); SIGUSR1 and SIGUSR2 stay
  /// blocked from the start of the process to its end.
  public static func unblockStopSignals() { pl_signals_unblock() }
}
