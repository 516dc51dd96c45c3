import PatternCore
import Raster
import Screen

/// A panel whose blanking switches its backlight off rather than the display, when it
/// has one: the panel stays powered (so a touch controller powered with it still
/// wakes the lock), and waking shows the current picture first and lights it once
/// that frame is on screen, so the picture from before the blank is never lit. Without
/// a backlight, or once writing it failed, it is the panel itself (DPMS).
///
/// Dimming (`dim-after-s`) lowers the light to `dim-level` and keeps the picture;
/// without a backlight it does nothing, which is said once. A brightness from Home
/// Assistant sets the normal level, the one lit when neither blank nor dimmed.
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
  /// `dim-level`: the percent of the range a dimmed panel is lit at.
  private let dimPercent: Int
  /// The lock screen is dimmed (whether or not a backlight shows it).
  public private(set) var isDimmed = false
  /// Dimming was asked of a panel without a backlight: yet to be said, then said.
  private var cannotDimUnsaid = false
  private var cannotDimSaid = false

  /// - Parameter dimPercent: `dim-level`, the percent of the backlight's range it is
  ///   dimmed to (1 to 100).
  public init(panel: consuming Panel, light: consuming Backlight?, dimPercent: Int) {
    self.panel = panel
    self.light = light
    self.dimPercent = dimPercent
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

  /// The kiosk's session gets the panel lit at its normal level: nothing of it would
  /// light a backlight the lock dimmed or switched off (a remote unlock opens a blank
  /// or dimmed lock without a touch).
  public mutating func handOver() {
    if (dark || isDimmed || lightsWithFlip) && hasLight && failure == nil {
      dark = false
      isDimmed = false
      lightUp()
    }
    panel.handOver()
  }
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
    isDimmed = false
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

  /// Dims the lit panel to `dim-level`, or lights it at its normal level again. A
  /// blank panel only notes it: waking lights it at the normal level.
  public mutating func dim(_ dimmed: Bool) {
    guard dimmed != isDimmed else { return }
    isDimmed = dimmed
    guard hasLight, failure == nil else {
      if dimmed && !hasLight && !cannotDimSaid { cannotDimUnsaid = true }
      return
    }
    guard !dark, !lightsWithFlip else { return }
    do throws(BacklightError) {
      if dimmed { try light!.dim(toPercent: dimPercent) } else { try light!.switchOn() }
    } catch {
      fail(error)
    }
  }

  /// Makes `percent` the normal level (a brightness from Home Assistant, already
  /// within the system's bounds): written now when the panel is lit and not dimmed,
  /// else at the next waking; a dimmed panel stays dimmed, never above it.
  ///
  /// - Returns: the normal level in percent as the backlight has it; nil without a
  ///   usable backlight.
  public mutating func setBrightness(percent: Int) -> Int? {
    guard hasLight, failure == nil else { return nil }
    let lit = !dark && !lightsWithFlip && !isDimmed
    do throws(BacklightError) {
      let applied = try light!.setNormal(percent: percent, lit: lit)
      if isDimmed && !dark && !lightsWithFlip { try light!.dim(toPercent: dimPercent) }
      return applied
    } catch {
      fail(error)
      return nil
    }
  }

  /// The normal level in percent; nil without a usable backlight.
  public var brightnessPercent: Int? {
    guard failure == nil else { return nil }
    switch light {
    case .some(let held): return held.normalPercent
    case .none: return nil
    }
  }

  private mutating func fail(_ error: BacklightError) {
    failure = error
    failureUnsaid = true
  }

  public mutating func takeNotice() -> String? {
    if cannotDimUnsaid {
      cannotDimUnsaid = false
      cannotDimSaid = true
      return BacklitPanel.cannotDim
    }
    if failureUnsaid, let failure {
      failureUnsaid = false
      return failure.message
    }
    return panel.takeNotice()
  }

  /// Said once when dim-after-s comes to a panel without a backlight.
  public static var cannotDim: String {
    "dim-after-s: this panel has no backlight the lock can set (none found, or backlight = none), so it does not dim; set backlight = NAME or dim-after-s = 0"
  }
}
