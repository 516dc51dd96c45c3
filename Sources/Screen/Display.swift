import PatternCore
import Raster
import Scene

/// Where the lock screen's state is shown: a KMS panel, an fbdev panel, the session
/// lock's outputs, PNG files for `replay --dump`, memory in the tests.
///
/// There is one way of presenting: the display is handed the state (`present`). A
/// display that is one panel draws it into the lock screen's picture, laid out for
/// that panel, and shows the whole frame: it conforms to `PanelDisplay`, which does
/// this for it. A display whose outputs have sizes of their own (the session lock)
/// draws the state into its own pictures and leaves the panel's picture untouched,
/// so that picture never makes its frames.
///
/// Used only as a generic constraint, never as an existential, so the loop is
/// specialised per back-end (Embedded Swift has no non-class existentials). Adding a
/// back-end is one type conforming to this in its own module; see docs/architecture.md.
public protocol Display: ~Copyable {
  /// The pixel format the lock screen's picture is drawn in for this display.
  associatedtype Pixel: PixelStorage
  /// What the display throws, carrying its message for the user.
  associatedtype Failure: DescribedError

  /// The width in pixels the lock screen is laid out for (the panel's, or the
  /// output the gesture is tracked on).
  var width: Int { get }
  /// The height in pixels the lock screen is laid out for.
  var height: Int { get }
  /// The descriptor to poll for the display's events (flips), or -1 for none.
  var pollDescriptor: Int32 { get }
  /// The descriptor to poll for outputs coming and going, or -1 for none.
  var hotplugDescriptor: Int32 { get }
  /// Whether a presented frame is still waiting to be shown (vblank, the compositor).
  var isFlipPending: Bool { get }

  /// Brings the display up to `state`.
  ///
  /// - Parameters:
  ///   - picture: the lock screen's picture, laid out for `width` x `height`; drawn
  ///     only by a display that shows it.
  ///   - blackFrames: blanking shows black frames (switching off was refused once).
  /// - Returns: whether a frame was presented (a flip completed later), the panel
  ///   rectangle it changed, and why the display could not switch off, the one time
  ///   it refused.
  mutating func present(
    _ state: LockScreenState, picture: inout LockPicture<Pixel>, blackFrames: Bool
  ) throws(Failure) -> Presentation<Failure>
  /// Handles the display's events when `pollDescriptor` is readable; returns the time
  /// a flip completed (CLOCK_MONOTONIC microseconds), if one did.
  mutating func completeFlip() throws(Failure) -> UInt64?
  /// Looks at the outputs again when `hotplugDescriptor` is readable, or after
  /// `completeFlip` when `outputsChanged` says so; says what the lock screen must do.
  mutating func hotplug() throws(Failure) -> OutputChange

  /// Whether the outputs changed in a way only `hotplug` can apply (a size, a scale,
  /// an output added): asked after each `completeFlip`.
  var outputsChanged: Bool { get }
  /// How the panel is mounted (the user's rotation is added to it).
  var panelRotation: Rotation { get }
  /// The panel's width in millimetres, 0 when unknown (for the dots per inch).
  var widthMillimetres: Int { get }
  /// What was taken, for the start-up line: `HDMI-A-1 (800x480) of /dev/dri/card0 (atomic)`.
  var summary: String { get }
  /// Whether the display can be handed to a kiosk's session (`handOver`) and taken
  /// back by the next present.
  var canHandOver: Bool { get }
  /// Lets a kiosk's session take the display, leaving the frame on screen until it
  /// shows its own.
  mutating func handOver()
  /// What the display has to say for the journal since it was last asked, once (a
  /// backlight it could not write and gave up on); asked after each present.
  mutating func takeNotice() -> String?
  /// Makes `percent` (1 to 100, within the system's bounds already) of the backlight's
  /// range its normal level: Home Assistant's brightness.
  ///
  /// - Returns: the normal level now, in percent; nil for a display without a
  ///   backlight it can set, which changes nothing.
  mutating func setBrightness(percent: Int) -> Int?
  /// The backlight's normal level in percent; nil without one.
  var brightnessPercent: Int? { get }
}

extension Display where Self: ~Copyable {
  public var hotplugDescriptor: Int32 { -1 }
  public mutating func hotplug() throws(Failure) -> OutputChange { .unchanged }
  public var outputsChanged: Bool { false }
  public var panelRotation: Rotation { .none }
  public var widthMillimetres: Int { 0 }
  public var summary: String { "\(width)x\(height)" }
  public var canHandOver: Bool { false }
  public mutating func handOver() {}
  public mutating func takeNotice() -> String? { nil }
  public mutating func setBrightness(percent: Int) -> Int? { nil }
  public var brightnessPercent: Int? { nil }
}

/// What one present did.
public struct Presentation<Failure> {
  /// A frame was presented: its flip completes later.
  public var presented: Bool
  /// Why the display could not switch off, the one time it refused (blanking shows
  /// black frames from then on).
  public var switchOffRefusal: Failure?
  /// The panel rectangle the frame changed (empty for a display that draws its own).
  public var damage: Rect

  public init(presented: Bool, switchOffRefusal: Failure? = nil, damage: Rect = .empty) {
    self.presented = presented
    self.switchOffRefusal = switchOffRefusal
    self.damage = damage
  }
}

/// What a look at the outputs found.
public enum OutputChange {
  /// Nothing the lock screen must do.
  case unchanged
  /// Everything must be drawn again (an output came back).
  case redrawAll
  /// The output is gone (`reason` says which, for the journal); nothing is shown
  /// until it comes back.
  case lost(reason: String)
  /// The output the lock is laid out for changed size: the lock screen takes the
  /// layout of `renderer`, made for the new size, and keeps its state.
  case resized(LockScreenRenderer)
}
