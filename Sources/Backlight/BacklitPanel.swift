import PatternCore
import Raster
import Screen

/// A panel whose blanking switches its backlight off rather than the display, when it
/// has one: the panel stays powered (so a touch controller powered with it still
/// wakes the lock), and waking shows the current picture first and lights it once
/// that frame is on screen, so the picture from before the blank is never lit. Without
/// a backlight, or once writing it failed, it is the panel itself (DPMS).
public struct BacklitPanel<Panel: PanelDisplay & ~Copyable>: PanelDisplay, ~Copyable {
  public typealias Pixel = Panel.Pixel
  public typealias Failure = Panel.Failure

  public var panel: Panel
  private var light: Backlight?
  /// The backlight is off for a blank.
  private var dark = false
  /// The frame that wakes the panel is queued: the backlight comes on with its flip.
  private var lightsWithFlip = false
  /// Why the backlight could not be written: the panel blanks with DPMS from then on.
  public private(set) var failure: BacklightError?
  /// The failure is yet to be said (`takeNotice`).
  private var failureUnsaid = false

  public init(panel: consuming Panel, light: consuming Backlight?) {
    self.panel = panel
    self.light = light
  }

  /// `rpi_backlight (0-255)`, or nil without a backlight.
  public var lightSummary: String? {
    switch light {
    case .some(let held): return "\(held.name) (0-\(held.maximum), lit at \(held.initial))"
    case .none: return nil
    }
  }

  public var width: Int { panel.width }
  public var height: Int { panel.height }
  public var pollDescriptor: Int32 { panel.pollDescriptor }
  public var hotplugDescriptor: Int32 { panel.hotplugDescriptor }
  public var isFlipPending: Bool { panel.isFlipPending }
  public var isOutputOff: Bool { dark || panel.isOutputOff }
  public var canSwitchOff: Bool { panel.canSwitchOff || hasLight }
  public var panelRotation: Rotation { panel.panelRotation }
  public var widthMillimetres: Int { panel.widthMillimetres }
  public var summary: String { panel.summary }
  public var canHandOver: Bool { panel.canHandOver }
  public var outputsChanged: Bool { panel.outputsChanged }

  private var hasLight: Bool {
    switch light {
    case .some: return true
    case .none: return false
    }
  }

  public mutating func handOver() { panel.handOver() }
  public mutating func hotplug() throws(Failure) -> OutputChange { try panel.hotplug() }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
    try panel.show(frame, damage: damage)
  }

  public mutating func completeFlip() throws(Failure) -> UInt64? {
    let time = try panel.completeFlip()
    if time != nil && lightsWithFlip { lightUp() }
    return time
  }

  public mutating func switchOff() throws(Failure) {
    if hasLight && failure == nil {
      do throws(BacklightError) {
        try light!.switchOff()
        dark = true
        return
      } catch {
        fail(error)
      }
    }
    try panel.switchOff()
  }

  public mutating func switchOn(showing frame: [UInt8]) throws(Failure) {
    guard dark else { return try panel.switchOn(showing: frame) }
    dark = false
    let queued = try panel.show(frame, damage: Rect(x: 0, y: 0, width: panel.width, height: panel.height))
    if queued && panel.isFlipPending { lightsWithFlip = true } else { lightUp() }
  }

  private mutating func lightUp() {
    lightsWithFlip = false
    do throws(BacklightError) {
      try light!.switchOn()
    } catch {
      fail(error)
    }
  }

  private mutating func fail(_ error: BacklightError) {
    failure = error
    failureUnsaid = true
  }

  public mutating func takeNotice() -> String? {
    if failureUnsaid, let failure {
      failureUnsaid = false
      return failure.message
    }
    return panel.takeNotice()
  }
}
