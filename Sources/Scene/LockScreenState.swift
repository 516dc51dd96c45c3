import PatternCore

/// Everything the lock screen shows at one instant: the input to a render.
///
/// Two equal states render identical pixels, so the renderer can diff the previous
/// state against the next to find what to redraw.
public struct LockScreenState: Sendable, Equatable {
  /// How the dots and the line are coloured.
  public enum Appearance: Sendable, Equatable {
    /// Drawing or waiting for a pattern.
    case entry
    /// The pattern just drawn was wrong or too short: shown in red, input ignored.
    case wrong
    /// The pattern was accepted.
    case success
  }

  /// The joined dots.
  public var trail: DotSequence
  /// The finger, when it is down: the line runs on from the last dot to it.
  public var finger: Point?
  public var appearance: Appearance
  /// The line of text beside or above the grid.
  public var prompt: PromptText
  /// Where a mouse points, drawn as a small cursor; nil for touch and tablets.
  public var pointer: Point?
  /// The screen is blanked (black) after a time without input; a touch wakes it.
  public var blanked = false
  /// The backlight is dimmed after a time without input (`dim-after-s`); the picture
  /// is the same, and input is taken as always.
  public var dimmed = false
  /// How far the power button's long press has come, in steps of
  /// `LockScreenController.powerPressSteps`; nil when the button is not held.
  public var powerPress: Int?
  /// Where the grid stands for this attempt (`grid-motion`); `trail` holds the grid's
  /// own dot numbers, drawn wherever the placement puts them.
  public var grid: GridPlacement

  public init(
    trail: DotSequence = DotSequence(), finger: Point? = nil, appearance: Appearance = .entry, prompt: PromptText = PromptText(),
    pointer: Point? = nil, grid: GridPlacement = .home
  ) {
    self.trail = trail
    self.finger = finger
    self.appearance = appearance
    self.prompt = prompt
    self.pointer = pointer
    self.grid = grid
  }
}

extension LockScreenState {
  /// What a screen beside the one the pattern is drawn on shows (the session lock's
  /// other monitors, as a phone's second screen): the prompt, its colour (a wrong
  /// pattern's red, the countdown, the unlock), blanking and the power button's
  /// press, but neither the joined dots nor the line nor the finger nor the cursor,
  /// which would show the pattern to whoever faces that screen.
  public var withoutDrawing: LockScreenState {
    var state = self
    state.trail = DotSequence()
    state.finger = nil
    state.pointer = nil
    return state
  }
}
