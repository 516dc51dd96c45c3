import CommandKit
import Configuration
import PatternCore
import Scene
import Screen
import Typeface

/// What every lock command makes first, in the same words: the unlock actions (checked
/// before anything on screen changes), the grid and text for a surface, and the loop.
/// `run`, `enroll`, `check`, `judge` and `session-lock` start from it.
package enum LockStartKit {
  /// The hooks and the door strike, checked before anything on screen changes.
  package static func makeActions(_ settings: Settings) throws(CommandFailure) -> UnlockActions {
    return try lifting(CommandFailure.actions) { () throws(ActionsError) in try UnlockActions(settings) }
  }

  /// The grid and the screen's text for `options` on `surface` (named in the error), the
  /// font loaded (a font that fails is said, and the lock shown without text), for run
  /// and session-lock.
  package static func layOut(
    _ options: LayoutOptions, _ configuration: ScreenConfiguration, on surface: String
  ) throws(CommandFailure) -> (GridLayout, ScreenText) {
    do throws(LayoutError) {
      return try ScreenText.layOut(
        options, message: configuration.message, fontPath: configuration.fontPath ?? FontLoader.defaultFontPath,
        language: configuration.language, loadingFont: true,
        fontFailure: { Console.error($0.message + ($0.isLanguageFallback ? "" : "; showing the lock without text")) })
    } catch {
      throw .usage(UsageError(error.message + " (\(surface))"))
    }
  }

  /// As `layOut`, but the atlas holds only what `firstScreen` shows; the rest is left
  /// to the returned completion, for after the first frame (`EventLoop.afterFirstFrame`).
  package static func layOut(
    _ options: LayoutOptions, _ configuration: ScreenConfiguration, on surface: String, firstScreen: PromptText
  ) throws(CommandFailure) -> (GridLayout, ScreenText, GlyphCompletion?) {
    do throws(LayoutError) {
      let (layout, text, rest) = try ScreenText.layOut(
        options, message: configuration.message, fontPath: configuration.fontPath ?? FontLoader.defaultFontPath,
        language: configuration.language, loadingFont: true, firstScreen: firstScreen,
        fontFailure: { Console.error($0.message + ($0.isLanguageFallback ? "" : "; showing the lock without text")) })
      return (layout, text, rest.map(GlyphCompletion.init))
    } catch {
      throw .usage(UsageError(error.message + " (\(surface))"))
    }
  }

  /// The lock's one loop (its signalfd and timerfd), for run and session-lock.
  package static func makeLoop() throws(CommandFailure) -> EventLoop {
    return try lifting(CommandFailure.loop) { () throws(LoopFailure) in try EventLoop() }
  }
}
