import PatternCore
import Raster
import Scene

/// A display that is one panel showing whole frames: KMS, fbdev, PNG files, memory.
/// It is handed frames in `Pixel`'s format, `width * Pixel.bytesPerPixel` bytes per
/// row, with the rectangle that changed since the last one; `present` comes with it.
public protocol PanelDisplay: Display, ~Copyable {
  /// Whether the output is switched off (idle blanking); nothing is shown until
  /// `switchOn`.
  var isOutputOff: Bool { get }
  /// Whether the display has an output to switch off at all (a PNG file has not:
  /// blanking then shows a black frame).
  var canSwitchOff: Bool { get }

  /// Shows `frame`; `damage` says what changed since the last call. Returns false
  /// when nothing could be shown (the output is unplugged).
  mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool
  /// Switches the output off. Throws when the display cannot, changing nothing: the
  /// lock then blanks by showing black frames.
  mutating func switchOff() throws(Failure)
  /// Switches the output on again, showing the whole of `frame` at once.
  mutating func switchOn(showing frame: [UInt8]) throws(Failure)
  /// Whether the panel is dimmed (`dim-after-s`).
  var isDimmed: Bool { get }
  /// Dims the panel, keeping its picture, or lights it fully again. A panel without
  /// a backlight does nothing (and may say so once in `takeNotice`).
  mutating func dim(_ dimmed: Bool)
}

extension PanelDisplay where Self: ~Copyable {
  public var isDimmed: Bool { false }
  public mutating func dim(_ dimmed: Bool) {}
}

extension PanelDisplay where Self: ~Copyable {
  /// Draws the damaged part of `state` into `picture` and shows it; a blank screen
  /// switches the output off (DPMS) instead of showing a black frame, and the present
  /// that wakes it switches it on with the whole current picture, so the picture from
  /// before the blank never shows. Deciding from the state, and not from the pixels,
  /// because an all-black frame is not necessarily a blank screen.
  public mutating func present(
    _ state: LockScreenState, picture: inout LockPicture<Pixel>, blackFrames: Bool
  ) throws(Failure) -> Presentation<Failure> {
    let damage = picture.render(state)
    var refusal: Failure? = nil
    if state.blanked && canSwitchOff && !blackFrames {
      if isOutputOff { return Presentation(presented: false) }
      do throws(Failure) {
        try switchOff()
        return Presentation(presented: false)
      } catch {
        refusal = error
      }
    }
    if isOutputOff {
      try switchOn(showing: picture.frame)
      return Presentation(presented: false, switchOffRefusal: refusal)
    }
    if state.dimmed != isDimmed {
      dim(state.dimmed)
      // Dimming changes no pixel: a frame of its own would be a flip for nothing.
      if damage.isEmpty { return Presentation(presented: false, switchOffRefusal: refusal) }
    }
    return Presentation(presented: try show(picture.frame, damage: damage), switchOffRefusal: refusal, damage: damage)
  }
}
