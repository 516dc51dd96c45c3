import PatternCore
import Raster
import Scene
import Screen

/// The session lock's outputs as the lock screen's display: it is handed the lock's
/// state (`drawsStateItself`), which each output draws in a picture laid out for its
/// own size into its shared-memory buffers, paced by its frame callbacks; the loop is
/// paced by the output the gesture is drawn on.
///
/// It shares its connection with `SessionLockInput`: both poll the one descriptor, and
/// whichever the loop drains first reads it (a read finds what is queued, without
/// waiting), so the frame callbacks and the input arrive whatever order the two were
/// added to the loop in.
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

  public var drawsStateItself: Bool { true }

  public mutating func show(state: LockScreenState) throws(WaylandError) -> Bool {
    try connection.show(state: state)
  }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(WaylandError) -> Bool {
    try connection.show(frame, damage: damage)
  }

  public mutating func completeFlip() throws(WaylandError) -> UInt64? {
    try connection.dispatch()
    return connection.takeFrameDone()
  }

  public mutating func hotplug() throws(WaylandError) -> Bool { false }

  public mutating func switchOff() throws(WaylandError) {}

  public mutating func switchOn(showing frame: [UInt8]) throws(WaylandError) {
    _ = try connection.show(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
  }
}
