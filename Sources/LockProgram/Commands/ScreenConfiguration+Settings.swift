import Configuration
import PatternCore
import Scene
import Screen

extension ScreenConfiguration {
  /// The screen as the settings say, made once per command: every row of the settings
  /// table marked `isScreenSetting` is read here and nowhere else.
  package init(_ settings: Settings) {
    self.init(
      layout: settings.layout, theme: settings.theme, language: settings.language.forThisProcess,
      fontPath: settings.fontPath, inputMode: settings.inputMode, message: settings.message,
      feedbackMicroseconds: UInt64(settings.feedbackMilliseconds) * 1000,
      idleBlankMicroseconds: settings.idleBlankSeconds > 0 ? UInt64(settings.idleBlankSeconds) * 1_000_000 : nil,
      dimAfterMicroseconds: settings.dimAfterSeconds > 0 ? UInt64(settings.dimAfterSeconds) * 1_000_000 : nil,
      unattended: UnattendedTimeout(seconds: settings.timeoutSeconds, action: settings.timeoutAction),
      gridMotion: settings.gridMotion)
  }
}
