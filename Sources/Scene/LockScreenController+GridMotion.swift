import PatternCore

/// The grid moving between attempts (`grid-motion`): before the first attempt and
/// whenever a verdict clears. The controller never draws a random number: the driver
/// hands it the placements, from the system in the live lock and from a seed in
/// `replay`, so a replay moves the grid exactly as it moved on the device.
extension LockScreenController {
  /// Whether the next attempt's placement is still to be supplied.
  public var wantsNextGrid: Bool { gridMotion != .off && upcomingGrid == nil }

  /// Puts the grid at `placement` now, dropping anything drawn on it: the first
  /// attempt's placement, before any input. Ignored while `gridMotion` is off.
  public mutating func moveGrid(to placement: GridPlacement) {
    guard gridMotion != .off else { return }
    grid = placement
    tracker.place(placement)
    keyed.removeAll()
    state.trail = DotSequence()
    state.finger = nil
    state.grid = placement
  }

  /// The placement the grid takes when the verdict now on screen (or the next one)
  /// clears. Ignored while `gridMotion` is off.
  public mutating func prepareNextGrid(_ placement: GridPlacement) {
    guard gridMotion != .off else { return }
    upcomingGrid = placement
  }

  /// A verdict cleared: the grid takes the placement prepared for it. Without one
  /// (the driver did not supply it) the grid stays where it stood: still usable,
  /// only not moved.
  mutating func moveGridForNextAttempt() {
    guard let next = upcomingGrid else { return }
    upcomingGrid = nil
    grid = next
    tracker.place(next)
  }
}
