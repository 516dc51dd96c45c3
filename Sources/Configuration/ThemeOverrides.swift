import Raster
import Scene

/// The `[theme]` keys that replace single colours of the preset `theme =` names; nil
/// keeps the preset's (the value `theme`).
///
/// Kept apart from the preset, not written into a `Theme` as each key is read, so that
/// a colour set in /etc stays set when a later layer or the command line picks
/// another preset: the colours always go on top of whichever preset wins.
public struct ThemeOverrides: Equatable, Sendable {
  public var backgroundTop: Color?
  public var backgroundBottom: Color?
  public var ring: Color?
  public var dot: Color?
  public var line: Color?
  /// line-opacity in percent.
  public var lineOpacityPercent: Int?
  public var wrong: Color?
  public var success: Color?
  public var text: Color?
  public var message: Color?

  public init() {}

  /// `preset`'s theme with these colours put in.
  public func applied(to preset: ThemePreset) -> Theme {
    var theme = Theme(preset: preset)
    if let backgroundTop { theme.backgroundTop = backgroundTop }
    if let backgroundBottom { theme.backgroundBottom = backgroundBottom }
    if let ring { theme.ring = ring }
    if let dot { theme.dot = dot }
    if let line { theme.accent = line }
    if let lineOpacityPercent { theme.lineAlpha = ThemeOverrides.alpha(percent: lineOpacityPercent) }
    if let wrong { theme.wrong = wrong }
    if let success { theme.success = success }
    if let text { theme.text = text }
    if let message { theme.message = message }
    return theme
  }

  /// A percentage as 8-bit opacity, rounded to nearest: 50 is the seeds' 128.
  public static func alpha(percent: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (min(max(percent, 0), 100) * 255 + 50) / 100)
  }
}
