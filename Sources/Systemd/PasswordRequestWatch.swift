import CShim
import SystemCalls

/// What tells a password agent that something happened to the request it shows: a file
/// came or went in the request directory, the asking process ended, or a timer the agent
/// set ran out. One descriptor stands for all three (an epoll set), put behind a poll
/// loop's slot; `drain` empties it before the agent looks again.
public struct PasswordRequestWatch: ~Copyable {
  private let directory: FileDescriptor
  /// The asker's pidfd, until it is seen to have ended: closing it then takes it out of
  /// the set, which would otherwise stay readable for good.
  private var asker: FileDescriptor?
  /// Whether the asking process has ended (seen by `drain`, or before the watch began);
  /// false when no process was named.
  public private(set) var askerEnded = false
  private let timer: TimerDescriptor

  /// Watches `directory` and, when `pid` is given and still runs, that process; the
  /// descriptor that stands for them goes behind `slot`'s number (replacing what was
  /// there), and stays there as long as the slot does.
  ///
  /// - Throws: inotify's, pidfd_open's, timerfd's or epoll's `Errno` (`.noEntry` when
  ///   there is no such directory).
  public init(directory path: String, asker pid: Int32?, behind slot: inout DescriptorSlot) throws(Errno) {
    // Every descriptor is made before any is stored: a throw leaves nothing half made.
    let watched = FileDescriptor(owning: try retryingInterrupts { path.withCString { pl_watch_directory($0) } })
    var process: FileDescriptor? = nil
    var ended = false
    var members = [watched.rawValue]
    if let pid {
      let fd = pl_watch_process(pid)
      if fd >= 0 {
        process = FileDescriptor(owning: fd)
        members.append(fd)
      } else if Errno.current == .noSuchProcess {
        ended = true
      } else {
        throw Errno.current
      }
    }
    let wakeUp = try TimerDescriptor()
    members.append(wakeUp.rawValue)
    let group = FileDescriptor(owning: try retryingInterrupts { pl_watch_group() })
    for member in members {
      try retryingInterrupts { pl_watch_group_add(group.rawValue, member) }
    }
    try slot.place(group)
    directory = watched
    asker = process
    askerEnded = ended
    timer = wakeUp
  }

  private var askerDescriptor: Int32? {
    switch asker {
    case .some(let held): return held.rawValue
    case .none: return nil
    }
  }

  /// Wakes the watch `microseconds` from now (a grace period the agent waits out).
  public func wake(after microseconds: UInt64) throws(Errno) { try timer.arm(microseconds: microseconds) }

  /// Takes what made the descriptor readable, so a poll waits for what comes next, and
  /// notes an ended asker (`askerEnded`).
  public mutating func drain() {
    _ = pl_watch_drain(directory.rawValue)
    _ = try? timer.expirations()
    guard let pidfd = askerDescriptor else { return }
    var ended = PollSet(capacity: 1)
    _ = ended.add("asker", descriptor: pidfd)
    if (try? ended.wait(milliseconds: 0)) == true {
      askerEnded = true
      asker = nil
    }
  }
}
