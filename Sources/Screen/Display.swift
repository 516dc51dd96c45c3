import PatternCore
import Raster
import Scene

/// A screen the lock shows frames on: KMS on the device, PNG files for `replay
/// --dump`, memory in the tests. Frames arrive whole and panel-sized, in `Pixel`'s
/// format, `width * Pixel.bytesPerPixel` bytes per row, with the rectangle that
/// changed since the last one.
///
/// Used only as a generic constraint, never as an existential, so the loop is
/// specialised per back-end (Embedded Swift has no non-class existentials). Adding a
/// back-end is one type conforming to this; see docs/architecture.md.
public protocol Display: ~Copyable {
  /// The pixel format frames are drawn in for this display.
  associatedtype Pixel: PixelStorage
  /// What the display throws, carrying its message for the user.
  associatedtype Failure: DescribedError

  /// Panel width in pixels.
  var width: Int { get }
  /// Panel height in pixels.
  var height: Int { get }
  /// The descriptor to poll for the display's events (flips), or -1 for none.
  var pollDescriptor: Int32 { get }
  /// The descriptor to poll for outputs coming and going, or -1 for none.
  var hotplugDescriptor: Int32 { get }
  /// Whether a presented frame is still waiting for vblank.
  var isFlipPending: Bool { get }
  /// Whether the output is switched off (idle blanking); nothing is shown until
  /// `switchOn`.
  var isOutputOff: Bool { get }
  /// Whether the display has an output to switch off at all (a PNG file has not:
  /// blanking then shows a black frame).
  var canSwitchOff: Bool { get }

  /// Shows `frame`; `damage` says what changed since the last call. Returns false
  /// when nothing could be shown (the output is unplugged).
  mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool
  /// Handles the display's events when `pollDescriptor` is readable; returns the time
  /// a flip completed (CLOCK_MONOTONIC microseconds), if one did.
  mutating func completeFlip() throws(Failure) -> UInt64?
  /// Looks at the output again when `hotplugDescriptor` is readable; true when
  /// everything must be shown again (the output came back).
  mutating func hotplug() throws(Failure) -> Bool
  /// Switches the output off. Throws when the display cannot, changing nothing: the
  /// lock then blanks by showing black frames.
  mutating func switchOff() throws(Failure)
  /// Switches the output on again, showing the whole of `frame` at once.
  mutating func switchOn(showing frame: [UInt8]) throws(Failure)

  /// Whether the display draws the lock's state itself, on outputs it lays out for
  /// their own sizes (the session lock's monitors), instead of showing the frame the
  /// lock drew for `width` x `height`. False for a display that is one panel.
  var drawsStateItself: Bool { get }
  /// Shows `state` (asked only when `drawsStateItself`); false when no frame could be
  /// presented now (the display catches up by itself once it can).
  mutating func show(state: LockScreenState) throws(Failure) -> Bool
}

extension Display where Self: ~Copyable {
  public var drawsStateItself: Bool { false }
  public mutating func show(state: LockScreenState) throws(Failure) -> Bool { false }
}
