import PatternCore
import Scene

extension LockScreenState {
  /// What one output of the session lock shows of the lock's state (which is in the
  /// view pixels of the tracker's grid): the owner of the gesture (`SeatInput.owner`)
  /// shows everything, the finger and cursor moved onto its own grid; every other
  /// output shows the state `withoutDrawing`: the prompt, verdicts and countdowns
  /// without the pattern.
  public func shown(ownsGesture: Bool, grid: GridMapping) -> LockScreenState {
    guard ownsGesture else { return withoutDrawing }
    var state = self
    if let finger { state.finger = grid.fromReference(finger) }
    if let pointer { state.pointer = grid.fromReference(pointer) }
    return state
  }
}
