import PatternCore
import Screen

/// What `run` needs of a display back-end beyond showing frames: how the panel is
/// mounted and how big it is (for the layout), one line saying what was taken, and
/// its failure as a command failure for `main`.
protocol LockDisplay: Display, ~Copyable {
  /// How the panel is mounted (the user's `--rotate` is added to it).
  var panelRotation: Rotation { get }
  /// The panel's width in millimetres, 0 when unknown (for the dots per inch).
  var widthMillimetres: Int { get }
  /// What was taken, for the start-up line: `HDMI-A-1 (800x480) of /dev/dri/card0 (atomic)`.
  var summary: String { get }
  /// The back-end's failure, as `main` reports it.
  static func commandFailure(_ error: Failure) -> CommandFailure
}
