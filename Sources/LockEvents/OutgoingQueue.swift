/// One message for the broker.
public struct OutgoingMessage: Equatable {
  public var topic: String
  public var payload: String
  public var retain: Bool
}

/// The messages `patternlock mqtt` has been given and the broker has not yet
/// acknowledged, oldest first: sent while connected (QoS 1), each kept until its
/// PUBACK, and all that were in flight sent again after a reconnection, so a broker
/// that goes away loses none of them (a message may arrive twice: at least once).
///
/// Bounded: past `capacity` the oldest unsent messages are dropped and counted
/// (`dropped`), so a broker gone for days costs bounded memory.
public struct OutgoingQueue {
  /// About a day of a busy door's events, or a few hours of someone trying every
  /// pattern: each is a few hundred bytes.
  public static let defaultCapacity = 1000

  public let capacity: Int
  private var waiting: [OutgoingMessage] = []
  /// Sent and not acknowledged: the broker's message id and the message, in order.
  private var inFlight: [(id: Int32, message: OutgoingMessage)] = []
  /// Messages dropped because the queue was full, since the count was last taken.
  public private(set) var dropped = 0

  public init(capacity: Int = OutgoingQueue.defaultCapacity) { self.capacity = capacity }

  public var count: Int { waiting.count + inFlight.count }
  public var isEmpty: Bool { waiting.isEmpty && inFlight.isEmpty }
  public var unsent: Int { waiting.count }

  public mutating func append(_ message: OutgoingMessage) {
    waiting.append(message)
    while count > capacity {
      // The oldest message not yet on its way goes; one in flight may already be there.
      if !waiting.isEmpty { waiting.removeFirst() } else { inFlight.removeFirst() }
      dropped += 1
    }
  }

  public mutating func append(contentsOf messages: [OutgoingMessage]) {
    for message in messages { append(message) }
  }

  /// The next message to send, if any (it stays first until `sent` or `requeueAll`).
  public var next: OutgoingMessage? { waiting.first }

  /// The first waiting message went out with id `id`.
  public mutating func sent(id: Int32) {
    inFlight.append((id, waiting.removeFirst()))
  }

  /// The first waiting message cannot be sent at all: it goes.
  public mutating func discardNext() {
    waiting.removeFirst()
    dropped += 1
  }

  /// The broker acknowledged `id`.
  public mutating func acknowledged(_ id: Int32) {
    if let index = inFlight.firstIndex(where: { $0.id == id }) { inFlight.remove(at: index) }
  }

  /// The connection is gone: what was in flight goes first in line again, in order.
  public mutating func requeueAll() {
    waiting = inFlight.map { $0.message } + waiting
    inFlight.removeAll()
  }

  /// The dropped count, which starts again at 0.
  public mutating func takeDropped() -> Int {
    defer { dropped = 0 }
    return dropped
  }
}
