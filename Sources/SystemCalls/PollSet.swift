import CShim

/// The descriptors one `poll` waits on, each added by name (the name says which one
/// failed or is ready, in messages and the debugger). Made before the loop; adding,
/// waiting and asking allocate nothing once the set has its room.
public struct PollSet: ~Copyable {
  /// One registered descriptor: its place in the set.
  public struct Source: Equatable, Sendable {
    fileprivate let index: Int
  }

  private var entries: [pl_pollfd] = []
  public private(set) var names: [StaticString] = []

  public init(capacity: Int) {
    entries.reserveCapacity(capacity)
    names.reserveCapacity(capacity)
  }

  /// Adds `descriptor` (-1 for one that never becomes ready: poll skips it).
  public mutating func add(_ name: StaticString, descriptor: Int32) -> Source {
    entries.append(pl_pollfd(fd: descriptor, events: Int16(PL_POLLIN), revents: 0))
    names.append(name)
    return Source(index: entries.count - 1)
  }

  /// Empties the set, keeping its room (each mode of a loop adds its own sources).
  public mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    names.removeAll(keepingCapacity: true)
  }

  /// Waits up to `milliseconds` (-1 for ever) for a source to become ready
  /// (`pl_poll`, poll(2), called once).
  ///
  /// - Returns: nil after a signal interrupted the wait (the caller looks at its state
  ///   again before waiting anew, as the wait's time may be up: so not
  ///   `retryingInterrupts`), else whether a source is ready.
  /// - Throws: poll's `Errno`.
  public mutating func wait(milliseconds: Int32) throws(Errno) -> Bool? {
    let ready = entries.withUnsafeMutableBufferPointer { pl_poll($0.baseAddress, Int32($0.count), milliseconds) }
    if ready >= 0 { return ready > 0 }
    let errno = Errno.current
    if errno == .interrupted { return nil }
    throw errno
  }

  /// Whether `source` was ready in the last wait.
  public func isReady(_ source: Source) -> Bool { entries[source.index].revents != 0 }

  /// The first source after `previous` (after none: from the first) that was ready in
  /// the last wait, in the order they were added, which is the order a loop drains them.
  public func nextReady(after previous: Source?) -> Source? {
    var index = previous.map { $0.index + 1 } ?? 0
    while index < entries.count {
      if entries[index].revents != 0 { return Source(index: index) }
      index += 1
    }
    return nil
  }
}
