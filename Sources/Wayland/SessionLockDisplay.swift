import PatternCore
import Raster
import Scene
import Screen

/// The session lock's outputs as the lock screen's display: it is handed the lock's
/// state, which each output draws in a picture laid out for its own size into its
/// shared-memory buffers, paced by its frame callbacks; the loop is paced by the
/// output the gesture is drawn on. The lock screen's own picture is never drawn.
///
/// Outputs coming, going or changing size or scale are ordinary events: `hotplug`
/// makes their frames again and lays each out (`Layouts`); when the output the gesture
/// is tracked on changed size, the lock screen takes its new layout and keeps its
/// state (a verdict, a countdown, an answer awaited from the judge).
///
/// It shares its connection with `SessionLockInput`: both poll the one descriptor, and
/// whichever the loop drains first reads it (a read finds what is queued, without
/// waiting), so the frame callbacks and the input arrive whatever order the two were
/// added to the loop in.
public struct SessionLockDisplay<Layouts: OutputLayouts>: Display {
  public typealias Pixel = XRGB8888
  public typealias Failure = WaylandError

  public let connection: SessionLockConnection
  private let layouts: Layouts
  /// The layout of the output the gesture is tracked on (the lock screen's).
  private var tracker: LockScreenRenderer

  /// Lays every output out: the tracker's with `tracker`, the lock screen's own
  /// renderer, the others by `layouts`.
  public init(connection: SessionLockConnection, layouts: Layouts, tracker: LockScreenRenderer) throws(WaylandError) {
    self.connection = connection
    self.layouts = layouts
    self.tracker = tracker
    try layOutOutputs()
  }

  public var width: Int { connection.frameWidth }
  public var height: Int { connection.frameHeight }
  public var pollDescriptor: Int32 { connection.descriptor }
  public var isFlipPending: Bool { connection.isFramePending }
  public var outputsChanged: Bool { connection.framesStale }
  public var summary: String { "\(connection.outputCount) output(s), drawn at \(width)x\(height)" }

  /// The compositor powers outputs down by its own idle rules: blanking draws black
  /// (`LockScreenState.blanked`), so `blackFrames` changes nothing here.
  public mutating func present(
    _ state: LockScreenState, picture: inout LockPicture<XRGB8888>, blackFrames: Bool
  ) throws(WaylandError) -> Presentation<WaylandError> {
    Presentation(presented: try connection.show(state: state))
  }

  public mutating func completeFlip() throws(WaylandError) -> UInt64? {
    try connection.dispatch()
    return connection.takeFrameDone()
  }

  public mutating func hotplug() throws(WaylandError) -> OutputChange {
    guard connection.framesStale else { return .unchanged }
    let before = (connection.frameWidth, connection.frameHeight)
    try connection.prepareFrames()
    var change = OutputChange.redrawAll
    if (connection.frameWidth, connection.frameHeight) != before {
      tracker = try layouts.renderer(width: connection.frameWidth, height: connection.frameHeight)
      change = .resized(tracker)
    }
    try layOutOutputs()
    return change
  }

  /// Gives every output with new frames its picture: the tracker's output the
  /// tracker's layout (the others' grids are mapped onto it), every other one a layout
  /// for its own frame size.
  private func layOutOutputs() throws(WaylandError) {
    for output in connection.framesToLayOut {
      if output.tag == connection.trackerOutput {
        connection.attach(tracker, to: output.tag)
      } else {
        connection.attach(try layouts.renderer(width: output.width, height: output.height), to: output.tag)
      }
    }
  }
}
