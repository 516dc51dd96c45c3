/// Where a moving grid's placements come from (`GridMotion`): the system's random
/// source in the live lock, a seeded sequence in `replay` and the tests. Class-bound,
/// so the lock screen can hold one without knowing which.
public protocol GridRandomness: AnyObject {
  /// 64 bits for the next placement (`GridPlacement(choosing:randomBits:)`).
  func nextBits() -> UInt64
}
