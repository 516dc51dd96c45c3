import Raster

/// The lock screen's colours and options.
///
/// `Theme()` is the seed look (the `default` preset): a dark background, the line in
/// 32,210,254 at half opacity, red for a wrong pattern. The other presets are in
/// `ThemePreset`; patternlock.conf's `[theme]` keys replace single colours of a preset.
/// Sizes are not here: they come from the layout, which scales them with the cell.
public struct Theme: Sendable, Equatable {
  public var backgroundTop = Color(16, 20, 28)
  public var backgroundBottom = Color(4, 6, 10)
  /// A dot's ring before it is joined.
  public var ring = Color(150, 160, 175, 120)
  /// A dot's centre before it is joined.
  public var dot = Color(225, 230, 238)
  /// Joined dots and the line while drawing.
  public var accent = Color(32, 210, 254)
  /// Joined dots, the line and the prompt after a wrong or too-short pattern; also the
  /// power button's long-press ring, as it switches the machine off.
  public var wrong = Color(255, 72, 72)
  /// Joined dots and the line after an accepted pattern.
  public var success = Color(72, 220, 120)
  /// The line's opacity (the seed's 0.5).
  public var lineAlpha: UInt8 = 128
  /// Prompt text.
  public var text = Color(225, 230, 238)
  /// The owner's message: quieter than the prompt it sits under.
  public var message = Color(165, 172, 185)
  /// Hides the line and the joined state, so a watcher cannot follow the pattern.
  public var stealth = false
  /// In stealth, a wrong try's path is shown in the wrong colour for the verdict's time
  /// (`show-wrong`, opt-in: Android's stealth never shows it), so its owner sees the
  /// mistake; while drawing nothing is shown still.
  public var stealthPeeksWrong = false
  /// While drawing, the line between joined dots fades along its length, the oldest
  /// segment faintest (`fade-trail`, Android's `setFadePattern`).
  public var fadeTrail = false

  public init() {}

  /// The colours of a shipped preset.
  public init(preset: ThemePreset) {
    switch preset {
    case .default:
      break
    case .highContrast:
      // Black, white and saturated light colours: every colour a person must see is
      // at least 7:1 (WCAG 2.1 AAA) against the background (docs/themes.md; checked
      // by ThemeContrastTests).
      backgroundTop = Color(0, 0, 0)
      backgroundBottom = Color(0, 0, 0)
      ring = Color(200, 200, 200)
      dot = Color(255, 255, 255)
      accent = Color(255, 212, 0)
      wrong = Color(255, 122, 122)
      success = Color(80, 255, 120)
      lineAlpha = 255
      text = Color(255, 255, 255)
      message = Color(224, 224, 224)
    case .light:
      // Text at least 4.5:1 (WCAG AA) and everything else at least 3:1 (non-text
      // contrast) against the gradient's darker end; the line more opaque than the
      // seeds', as half a blue over a light grey is too faint.
      backgroundTop = Color(245, 247, 250)
      backgroundBottom = Color(227, 232, 239)
      ring = Color(110, 120, 134)
      dot = Color(40, 48, 60)
      accent = Color(10, 95, 180)
      wrong = Color(183, 28, 28)
      success = Color(23, 105, 45)
      lineAlpha = 204
      text = Color(28, 35, 45)
      message = Color(80, 90, 104)
    }
  }

  /// The colour of joined dots and the line for an appearance.
  public func accent(for appearance: LockScreenState.Appearance) -> Color {
    switch appearance {
    case .entry: return accent
    case .wrong: return wrong
    case .success: return success
    }
  }
}

/// The shipped themes, by the name `theme =` takes.
public enum ThemePreset: String, CaseIterable, Sendable {
  /// The seeds' look: dark blue-grey, a cyan line at half opacity.
  case `default`
  /// Black with white text and dots, a yellow line: at least 7:1 for everything drawn.
  case highContrast = "high-contrast"
  /// A light grey background with dark dots and text, a blue line.
  case light

  /// The name in patternlock.conf and on the command line.
  public var name: String { rawValue }

  /// The preset called `name`, or nil.
  public init?(name: String) { self.init(rawValue: name) }
}
