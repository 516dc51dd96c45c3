import PatternCore
import Scene

/// How the lock screen looks and behaves, as the settings say: made once from
/// `Settings` (the executable's `ScreenConfiguration(_:)`) and taken whole by every
/// `LockScreen`, so the first lock of a run, the one after an enrolment, each one shown
/// again over the kiosk and `replay`'s cannot differ in a setting. A new screen setting
/// is a field here, set in that one initialiser; the settings table marks its row
/// (`SettingRow.isScreenSetting`) and a test checks that every marked row reaches it.
///
/// The defaults are the settings' defaults (also checked by a test).
public struct ScreenConfiguration: Equatable, Sendable {
  /// grid, hit-radius, dpi, rotate, size and power-button. `run` puts the display's
  /// size, mounting and physical DPI into a copy once the display is known.
  public var layout: LayoutOptions
  /// theme, the colour-* keys, line-opacity, stealth, show-wrong and fade-trail.
  public var theme: Theme
  /// language, `auto` resolved from the locale: the prompts' language asked for (a
  /// font without its characters gives English instead, `ScreenText.language`).
  public var language: Language
  /// font: nil for the built-in choice.
  public var fontPath: String?
  /// input: drag, tap or both.
  public var inputMode: InputMode
  /// message: the owner's words as written; `ScreenText` holds them wrapped.
  public var message: String
  /// feedback-ms: how long a verdict stays on screen.
  public var feedbackMicroseconds: UInt64
  /// idle-blank-s: blank the screen after this long without input; nil never.
  public var idleBlankMicroseconds: UInt64?
  /// dim-after-s: dim the backlight after this long without input; nil never.
  public var dimAfterMicroseconds: UInt64?
  /// timeout-s and timeout-action.
  public var unattended: UnattendedTimeout
  /// grid-motion: how the grid moves between attempts.
  public var gridMotion: GridMotion

  public init(
    layout: LayoutOptions = LayoutOptions(), theme: Theme = Theme(), language: Language = .en, fontPath: String? = nil,
    inputMode: InputMode = .both, message: String = "", feedbackMicroseconds: UInt64 = 500_000,
    idleBlankMicroseconds: UInt64? = nil, dimAfterMicroseconds: UInt64? = nil, unattended: UnattendedTimeout = UnattendedTimeout(seconds: 0, action: .poweroff),
    gridMotion: GridMotion = .off
  ) {
    self.gridMotion = gridMotion
    self.layout = layout
    self.theme = theme
    self.language = language
    self.fontPath = fontPath
    self.inputMode = inputMode
    self.message = message
    self.feedbackMicroseconds = feedbackMicroseconds
    self.idleBlankMicroseconds = idleBlankMicroseconds
    self.dimAfterMicroseconds = dimAfterMicroseconds
    self.unattended = unattended
  }
}
