import PatternCore

/// Keyboard entry (accessibility): digits join dots, Backspace takes the last back,
/// Escape clears (and with nothing to clear, gives the question up where the judge can),
/// Enter submits.
extension LockScreenController {
  /// Joins a dot by number, as the digit keys do; ignored while drawing with a finger,
  /// during a verdict, for a dot already joined or beyond the grid.
  public mutating func keyDot(_ dot: Int, at time: UInt64) {
    guard startsKeyEdit(at: time, valid: dot >= 1 && dot <= tracker.layout.dotCount) else { return }
    var trail = keyed
    if trail.append(dot) {
      keyed = trail
      state.trail = keyed
      state.finger = nil
    }
  }

  /// Removes the last dot joined by keyboard (Backspace).
  public mutating func keyBackspace(at time: UInt64) {
    guard startsKeyEdit(at: time) else { return }
    keyed.removeLast()
    state.trail = keyed
  }

  /// Forgets the dots joined by keyboard (Escape).
  ///
  /// - Returns: true when there were none to forget and the screen takes input (no
  ///   finger down, no verdict, not blank): an Escape that asks to give the question up,
  ///   which a judge may do (the password agent cancels its request).
  @discardableResult
  public mutating func keyClear(at time: UInt64) -> Bool {
    guard startsKeyEdit(at: time) else { return false }
    if keyed.isEmpty { return true }
    keyed.removeAll()
    state.trail = keyed
    return false
  }

  /// Steps the clock to `time` and wakes a blanked screen (a key that wakes edits
  /// nothing); true when the key may edit the entry: input is accepted, no finger is
  /// down and the key itself is `valid`. Typing starts a keyboard entry, so taps not
  /// yet confirmed are dropped then.
  private mutating func startsKeyEdit(at time: UInt64, valid: Bool = true) -> Bool {
    advance(to: time)
    if wake(at: time) { return false }
    guard isAcceptingInput, !tracker.isActive, valid else { return false }
    tracker.reset()
    return true
  }

  /// Finishes the pattern joined by keyboard (Enter), as a finger lifting would.
  ///
  /// - Returns: the finished pattern, for the caller to judge with `show(_:for:)`.
  public mutating func keySubmit(at time: UInt64) -> GestureOutcome? {
    advance(to: time)
    if wake(at: time) { return nil }
    guard isAcceptingInput, !tracker.isActive, !keyed.isEmpty else { return nil }
    let dots = keyed
    keyed.removeAll()
    return GestureOutcome(dots: dots, result: dots.count >= tracker.minimumDots ? .complete : .tooShort, timeMicroseconds: time)
  }
}
