import PatternCore
import Screen

/// What `run` needs of a display back-end beyond showing frames: how the panel is
/// mounted and how big it is (for the layout), one line saying what was taken, and
/// its failure as a command failure for `main`.
package protocol LockDisplay: Display, ~Copyable {
  /// How the panel is mounted (the user's `--rotate` is added to it).
  var panelRotation: Rotation { get }
  /// The panel's width in millimetres, 0 when unknown (for the dots per inch).
  var widthMillimetres: Int { get }
  /// What was taken, for the start-up line: `HDMI-A-1 (800x480) of /dev/dri/card0 (atomic)`.
  var summary: String { get }
  /// Whether the display can be handed to a kiosk's session (`handOver`) and taken
  /// back by `switchOn`: KMS can, fbdev cannot.
  var canHandOver: Bool { get }
  /// Lets a kiosk's session take the display, leaving the frame on screen until it
  /// shows its own; `isOutputOff` is true until `switchOn` takes it back.
  mutating func handOver()
  /// The back-end's failure, as `main` reports it.
  static func commandFailure(_ error: Failure) -> CommandFailure
}
