import PatternCore

/// The power button in a corner (`power-button = yes`): held for
/// `powerPressMicroseconds`, it asks to switch off; its touches never reach the pattern.
extension LockScreenController {
  /// Takes the events of a finger that went down on the power button (they never
  /// reach the pattern); false for any other event.
  mutating func pressPowerButton(_ event: TouchEvent) -> Bool {
    let button = tracker.layout.powerButtonRect
    guard !button.isEmpty else { return false }
    switch event.kind {
    case .down:
      guard buttonSlot == nil, !tracker.isActive, LockScreenController.contains(button, event.position) else { return false }
      buttonSlot = event.slot
      buttonPressStart = event.timeMicroseconds
      state.powerPress = 0
      return true
    case .motion:
      guard event.slot == buttonSlot else { return false }
      if !LockScreenController.contains(button, event.position) {
        // Slid off: the press is void, and the finger still draws nothing.
        buttonPressStart = nil
        state.powerPress = nil
      }
      return true
    case .up, .cancel:
      guard event.slot == buttonSlot else { return false }
      buttonSlot = nil
      buttonPressStart = nil
      state.powerPress = nil
      return true
    case .frame:
      return false
    }
  }

  /// When the long press's ring fills its next step (or the press completes).
  func nextPowerPressStep(start: UInt64, after now: UInt64) -> UInt64 {
    let duration = LockScreenController.powerPressMicroseconds
    let steps = UInt64(LockScreenController.powerPressSteps)
    let elapsed = now > start ? now - start : 0
    let step = min(elapsed * steps / duration + 1, steps)
    // Rounded up, so that the step has been reached at that moment.
    return start + (step * duration + steps - 1) / steps
  }

  static func contains(_ rect: Rect, _ p: Point) -> Bool {
    p.x >= Fixed16(rect.x) && p.x < Fixed16(rect.maxX) && p.y >= Fixed16(rect.y) && p.y < Fixed16(rect.maxY)
  }
}
