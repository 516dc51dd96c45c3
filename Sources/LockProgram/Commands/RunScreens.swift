import PatternCore
import Raster
import Scene
import Screen

/// What every lock screen of one run is made from: the screen configuration, and the
/// layout and text laid out for the display that was taken. The first lock, the one
/// after an enrolment and each one shown again over the kiosk all come from `screen`,
/// so none of them can miss a setting the others have.
package struct RunScreens {
  package let configuration: ScreenConfiguration
  package let layout: GridLayout
  package let text: ScreenText
  /// The glyphs the first screen left for after its first frame, if it left any.
  package let completion: GlyphCompletion?

  package init(configuration: ScreenConfiguration, layout: GridLayout, text: ScreenText, completion: GlyphCompletion? = nil) {
    self.configuration = configuration
    self.layout = layout
    self.text = text
    self.completion = completion
  }

  /// A lock screen in `Pixel`'s format, judging patterns of `minimumDots` or more and
  /// waiting with `prompt`.
  package func screen<Pixel: PixelStorage>(_: Pixel.Type, minimumDots: Int, prompt: PromptText) -> LockScreen<Pixel> {
    // A screen made once the rest of the glyphs are rendered gets them all at once.
    var text = self.text
    if let full = completion?.full { text = ScreenText(atlas: full, message: text.message, language: text.language) }
    return LockScreen<Pixel>(
      layout: layout, configuration: configuration, text: text, minimumDots: minimumDots, prompt: prompt,
      gridRandomness: configuration.gridMotion == .off ? nil : SystemGridRandomness())
  }
}
