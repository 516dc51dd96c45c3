/// How a pattern may be entered on the glass (`input =`).
///
/// Dragging is the phone's way; tapping dot by dot is for people who cannot keep a
/// finger down across the grid (Android's `setClickInputSupported`). Keys are taken
/// in every mode.
public enum InputMode: String, Sendable, CaseIterable {
  /// One stroke across the dots, as on a phone.
  case drag
  /// One tap per dot; a tap anywhere in a dot's cell counts (see `TapEntry`).
  case tap
  /// Either: a touch that lands on a dot and stays in its cell is a tap, any other a drag.
  case both

  /// The mode by its name in the settings, or nil for any other word.
  public init?(name: String) { self.init(rawValue: name) }

  /// The name in the settings.
  public var name: String { rawValue }
}
