import Raster

/// The lock screen's colours and options.
///
/// The default is the seed look: a dark background, the line in 32,210,254 at half
/// opacity, red for a wrong pattern. Sizes are not here: they come from the layout,
/// which scales them with the cell.
public struct Theme: Sendable, Equatable {
  public var backgroundTop = Color(16, 20, 28)
  public var backgroundBottom = Color(4, 6, 10)
  /// A dot's ring before it is joined.
  public var ring = Color(150, 160, 175, 120)
  /// A dot's centre before it is joined.
  public var dot = Color(225, 230, 238)
  /// Joined dots and the line while drawing.
  public var accent = Color(32, 210, 254)
  /// Joined dots and the line after a wrong or too-short pattern.
  public var wrong = Color(255, 72, 72)
  /// Joined dots and the line after an accepted pattern.
  public var success = Color(72, 220, 120)
  /// The line's opacity (the seed's 0.5).
  public var lineAlpha: UInt8 = 128
  /// Prompt text.
  public var text = Color(225, 230, 238)
  /// The owner's message: quieter than the prompt it sits under.
  public var message = Color(165, 172, 185)
  /// The power button's long-press ring: the warning colour, as it switches the machine off.
  public var powerProgress = Color(255, 72, 72)
  /// Hides the line and the joined state, so a watcher cannot follow the pattern.
  public var stealth = false

  public init() {}

  /// The colour of joined dots and the line for an appearance.
  public func accent(for appearance: LockScreenState.Appearance) -> Color {
    switch appearance {
    case .entry: return accent
    case .wrong: return wrong
    case .success: return success
    }
  }
}
