import CShim
import SystemCalls

/// A GPIO line read as an input with edge events: a door contact or an exit button,
/// held by the lock for as long as it runs, its descriptor in the lock's poll.
public struct GPIOInput: ~Copyable {
  private let descriptor: FileDescriptor
  /// The line, for messages.
  public let line: GPIOLine

  /// Contacts bounce for a few milliseconds; 20 ms debounced is still instant to a person.
  public static let debounceMicroseconds: UInt32 = 20_000

  /// Requests `line` as an input reporting both edges (debounced), active-low when
  /// the line says so.
  ///
  /// - Throws: the `Errno` of the request (`.busy` when another consumer holds it).
  public init(_ line: GPIOLine) throws(Errno) {
    let fd = try retryingInterrupts {
      line.chipPath.withCString { pl_gpio_input_request($0, line.offset, line.activeLow ? 1 : 0, GPIOInput.debounceMicroseconds) }
    }
    descriptor = FileDescriptor(owning: fd)
    self.line = line
  }

  /// The descriptor to poll: readable when an edge is queued.
  public var pollDescriptor: Int32 { descriptor.rawValue }

  /// Whether the line is active now.
  public func isActive() throws(Errno) -> Bool {
    let fd = descriptor.rawValue
    return try retryingInterrupts { pl_gpio_input_level(fd) } == 1
  }

  /// Reads every queued edge.
  ///
  /// - Returns: the number of edges read (the caller reads the level after them).
  public func drainEdges() throws(Errno) -> Int {
    let fd = descriptor.rawValue
    var edges = 0
    while true {
      do throws(Errno) {
        _ = try retryingInterrupts { pl_gpio_input_next_edge(fd) }
        edges += 1
      } catch {
        if error == .wouldBlock { return edges }
        throw error
      }
    }
  }
}
