import PatternCore
import Raster
import Screen

/// The session lock's drawing surface as the lock screen's display: frames go into
/// the surface's shared-memory buffers, paced by the compositor's frame callbacks.
///
/// It shares its connection with `SessionLockInput`, which reads it: both poll the
/// one descriptor, and the input is drained first (it was added to the loop first),
/// so `completeFlip` only reports what that read brought.
public struct SessionLockDisplay: Display {
  public typealias Pixel = XRGB8888
  public typealias Failure = WaylandError

  public let connection: SessionLockConnection

  public init(connection: SessionLockConnection) { self.connection = connection }

  public var width: Int { connection.frameWidth }
  public var height: Int { connection.frameHeight }
  public var pollDescriptor: Int32 { connection.descriptor }
  public var hotplugDescriptor: Int32 { -1 }
  public var isFlipPending: Bool { connection.isFramePending }
  public var isOutputOff: Bool { false }
  /// The compositor powers outputs down by its own idle rules: blanking draws black.
  public var canSwitchOff: Bool { false }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(WaylandError) -> Bool {
    try connection.show(frame, damage: damage)
  }

  public mutating func completeFlip() throws(WaylandError) -> UInt64? {
    try connection.throwPending()
    return connection.takeFrameDone()
  }

  public mutating func hotplug() throws(WaylandError) -> Bool { false }

  public mutating func switchOff() throws(WaylandError) {}

  public mutating func switchOn(showing frame: [UInt8]) throws(WaylandError) {
    _ = try connection.show(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
  }
}
