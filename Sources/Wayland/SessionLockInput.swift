import PatternCore
import Screen

/// The seat of the session lock's connection as the lock screen's input: touch,
/// pointer and keys on the drawing surface (`SeatInput`). Draining it reads the
/// connection (as `SessionLockDisplay.completeFlip` does, whichever comes first), so the
/// display's events (sizes, releases, frames) are applied here too.
public struct SessionLockInput: InputSource {
  public typealias Failure = WaylandError

  public let connection: SessionLockConnection

  public init(connection: SessionLockConnection) { self.connection = connection }

  public var pollDescriptor: Int32 { connection.descriptor }
  public var nextEventTime: UInt64? { nil }

  public mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(WaylandError) {
    try connection.dispatch()
    connection.takeInput(handle)
  }
}
