import PatternCore

/// Strokes drawn on a moving grid as a seed places it: the events a finger makes
/// drawing `pattern` at the moved dot centres, once per attempt, each attempt a
/// second after the last (past the verdict), with a frame after every event.
public enum MovingGridStrokes {
  /// The placements `seed` gives a screen with `motion`, in order: the first
  /// attempt's, then one per cleared verdict (as `LockScreen` draws them).
  public static func placements(_ motion: GridMotion, seed: UInt64, count: Int) -> [GridPlacement] {
    let source = SeededGridRandomness(seed: seed)
    return (0..<count).map { _ in GridPlacement(choosing: motion, randomBits: source.nextBits()) }
  }

  public static func events(
    _ pattern: [Int], layout: GridLayout, motion: GridMotion, seed: UInt64, attempts: Int, from start: UInt64 = 1_000_000
  ) -> [TouchEvent] {
    var events: [TouchEvent] = []
    for (attempt, placement) in placements(motion, seed: seed, count: attempts).enumerated() {
      var time = start + UInt64(attempt) * 1_000_000
      func add(_ kind: TouchEvent.Kind, _ dot: Int) {
        let p = layout.centre(of: dot, placedAt: placement)
        events.append(TouchEvent(kind: kind, slot: 0, position: p, timeMicroseconds: time))
        events.append(TouchEvent(kind: .frame, slot: 0, position: p, timeMicroseconds: time))
        time += 16_000
      }
      add(.down, pattern[0])
      for dot in pattern.dropFirst() { add(.motion, dot) }
      add(.up, pattern.last!)
    }
    return events
  }
}
