import PatternCore
import Raster
import Scene
import Screen

extension ScreenConfiguration {
  /// The settings' defaults, with drag input unless told (the shipped captures that
  /// the step tests play were drawn as drags).
  public static func testing(
    theme: Theme = Theme(), inputMode: InputMode = .drag, language: Language = .en,
    feedbackMicroseconds: UInt64 = 500_000, idleBlankMicroseconds: UInt64? = nil, dimAfterMicroseconds: UInt64? = nil,
    gridMotion: GridMotion = .off
  ) -> ScreenConfiguration {
    ScreenConfiguration(
      theme: theme, language: language, inputMode: inputMode, feedbackMicroseconds: feedbackMicroseconds,
      idleBlankMicroseconds: idleBlankMicroseconds, dimAfterMicroseconds: dimAfterMicroseconds, gridMotion: gridMotion)
  }
}

extension LockScreen {
  /// A lock screen of `configuration` on `layout` with `atlas`'s glyphs and no message,
  /// checking patterns of four dots or more; a moving grid is placed from `gridSeed`.
  public init(
    testing layout: GridLayout, _ configuration: ScreenConfiguration = .testing(), atlas: GlyphAtlas? = nil, gridSeed: UInt64 = 0
  ) {
    self.init(
      layout: layout, configuration: configuration,
      text: ScreenText(atlas: atlas, message: [], language: configuration.language), minimumDots: 4,
      prompt: PromptText.drawPattern,
      gridRandomness: configuration.gridMotion == .off ? nil : SeededGridRandomness(seed: gridSeed))
  }
}
