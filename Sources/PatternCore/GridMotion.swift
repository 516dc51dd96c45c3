/// How the grid moves between attempts (`grid-motion =`), against someone watching.
///
/// A pattern drawn on a grid that stands still leaves smudges, and a film of the
/// fingertip, that line up with the same dots next time. Moving the grid before each
/// attempt breaks that: `shift` moves the whole grid by a small random offset inside
/// its square (`GridPlacement`), so smudges and a fingertip's path on the glass no
/// longer sit on the dots; `turn` turns the grid by a random quarter turn and reads
/// the pattern in the grid's own frame, so the same secret is drawn in another
/// direction on the glass each time, and a filmed shape fits four patterns.
public enum GridMotion: String, Sendable, CaseIterable {
  /// The grid stands still: the phone's behaviour.
  case off
  /// The grid moves by a random offset before each attempt.
  case shift
  /// The grid turns by a random quarter turn before each attempt.
  case turn

  /// The motion by its name in the settings, or nil for any other word.
  public init?(name: String) { self.init(rawValue: name) }

  /// The name in the settings.
  public var name: String { rawValue }
}
