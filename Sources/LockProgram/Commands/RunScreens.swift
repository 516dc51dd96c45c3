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

  package init(configuration: ScreenConfiguration, layout: GridLayout, text: ScreenText) {
    self.configuration = configuration
    self.layout = layout
    self.text = text
  }

  /// A lock screen in `Pixel`'s format, judging patterns of `minimumDots` or more and
  /// waiting with `prompt`.
  package func screen<Pixel: PixelStorage>(_: Pixel.Type, minimumDots: Int, prompt: PromptText) -> LockScreen<Pixel> {
    LockScreen<Pixel>(
      layout: layout, configuration: configuration, text: text, minimumDots: minimumDots, prompt: prompt,
      gridRandomness: configuration.gridMotion == .off ? nil : SystemGridRandomness())
  }
}
