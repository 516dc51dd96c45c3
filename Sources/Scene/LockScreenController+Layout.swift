import PatternCore

/// The panel changing size under a running lock (the session lock's first output
/// resized or rescaled): the lock keeps its state and takes the new layout.
extension LockScreenController {
  /// Hit-tests from now on against `layout`. What is being judged, the verdict on
  /// screen, a lockout or a countdown, the keyed dots and the grid's placement all
  /// stay; only a gesture in progress is dropped (its finger's positions belong to
  /// the old layout), as is a half-held power button.
  public mutating func relayOut(_ layout: GridLayout) {
    tracker = GestureTracker(layout: layout, minimumDots: tracker.minimumDots, inputMode: tracker.inputMode)
    tracker.place(grid)
    // While input is taken the trail on screen is the tracker's (a drag, taps) or the
    // keyed dots; only the keyed ones survive the new tracker.
    if isAcceptingInput { state.trail = keyed }
    state.finger = nil
    state.pointer = nil
    buttonSlot = nil
    buttonPressStart = nil
    state.powerPress = nil
  }
}
