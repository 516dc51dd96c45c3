/// Turns touch events into a pattern: which dots the owning finger joined, in order.
///
/// Rules, as a phone's pattern lock behaves:
/// - The first finger down owns the gesture; other slots are ignored until it lifts.
///   A cancel of the owning slot drops the gesture without an outcome.
/// - The whole segment between two samples is tested against every hit circle, in
///   order along the segment, so a fast swipe never skips a dot it crossed (Android
///   tests only the samples).
/// - A dot is never joined twice.
/// - Gap fill: joining a dot that lies a whole number of steps away from the last one,
///   where a step is the row and column distance divided by their gcd, first joins the
///   unvisited dots on the steps in between (1→3 adds 2, 1→9 adds 5, a knight's move
///   adds nothing).
///
/// With `input = tap` or `both` (`InputMode`) a touch can also be a tap, which adds a
/// dot to a `TapEntry` instead: in `tap` mode every touch is one, for the cell it
/// landed in, if it lifts without leaving that cell. In `both` a touch is a tap only
/// when it landed on a dot (in its hit circle) and never left that dot's cell, and so
/// joined that dot alone;
/// any touch that crossed into another cell, or joined two dots, is a drag, which
/// starts a new pattern and drops the taps. So a drag is never taken for a tap.
///
/// All maths is integer on 16.16 positions: the hit test compares squared distances
/// exactly (in `Int128` where a product can pass 2^63), so every architecture agrees.
/// Nothing here allocates: the trail is an inline `DotSequence`.
public struct GestureTracker: Sendable {
  public let layout: GridLayout
  /// The fewest dots for a `complete` result.
  public let minimumDots: Int
  /// Drags, taps or both.
  public let inputMode: InputMode
  private let hitRadiusSquared: Int64

  /// The slot of the finger that owns the gesture, while one is down.
  public private(set) var ownerSlot: Int32?
  /// The dots joined so far in the current gesture.
  public private(set) var trail = DotSequence()
  /// The owning finger's last position, for the line from the last dot to the finger.
  public private(set) var fingerPosition: Point?
  /// Where the grid stands for this attempt (`GridMotion`); dots are the grid's own
  /// numbers wherever it stands.
  public private(set) var placement = GridPlacement.home
  /// The dots tapped so far (tap and both modes).
  public private(set) var taps = TapEntry()
  /// The dot of the cell the owning finger landed in, while it has not left that
  /// cell: the dot its lift taps. Nil in drag mode.
  private var tapTarget: Int?

  /// - Parameters:
  ///   - layout: where the dots are and how large the hit circles are.
  ///   - minimumDots: the fewest dots for a complete pattern, 1 to the number of dots.
  ///   - inputMode: whether touches drag, tap or either (the tracker alone is a
  ///     phone's: drag).
  public init(layout: GridLayout, minimumDots: Int = 4, inputMode: InputMode = .drag) {
    precondition(minimumDots >= 1 && minimumDots <= layout.dotCount, "minimum dots out of range")
    self.layout = layout
    self.minimumDots = minimumDots
    self.inputMode = inputMode
    let r = Int64(layout.hitRadius.raw)
    hitRadiusSquared = r * r
  }

  /// Whether a finger currently owns a gesture.
  public var isActive: Bool { ownerSlot != nil }

  /// The dots to show: the taps while a tap entry is under way and the finger down
  /// (if any) has not turned into a drag; the drag's trail otherwise.
  public var shownTrail: DotSequence { showsTaps ? taps.dots : trail }
  /// Where the line runs on to: the finger of a drag; nowhere for taps.
  public var shownFinger: Point? { showsTaps ? nil : fingerPosition }

  private var showsTaps: Bool {
    switch inputMode {
    case .drag: return false
    case .tap: return true
    case .both: return !taps.dots.isEmpty && (ownerSlot == nil || tapTarget != nil)
    }
  }

  /// Feeds one event.
  ///
  /// - Returns: the finished gesture when the owning finger lifts having dragged
  ///   across at least one dot, or when its tap confirmed a tap entry; nil otherwise.
  public mutating func handle(_ event: TouchEvent) -> GestureOutcome? {
    switch event.kind {
    case .down:
      guard ownerSlot == nil else { return nil }
      ownerSlot = event.slot
      trail.removeAll()
      fingerPosition = event.position
      if inputMode != .tap { joinDots(alongSegmentFrom: event.position, to: event.position) }
      switch inputMode {
      case .drag: break
      // Where only taps count, the whole cell is the target; where a touch may also
      // be a drag, it must land on the dot itself, so a stray touch in the grid is no tap.
      case .tap: tapTarget = layout.dot(inCellAt: event.position, placedAt: placement)
      case .both: tapTarget = trail.last
      }
      if inputMode != .drag { taps.hold() }
    case .motion:
      guard event.slot == ownerSlot, let from = fingerPosition else { return nil }
      fingerPosition = event.position
      if let target = tapTarget, layout.dot(inCellAt: event.position, placedAt: placement) != target { tapTarget = nil }
      if inputMode != .tap { joinDots(alongSegmentFrom: from, to: event.position) }
    case .up:
      guard event.slot == ownerSlot else { return nil }
      let dots = trail, tapped = tapTarget
      endTouch()
      let time = event.timeMicroseconds
      // Joining two dots needs two cells, so a touch that stayed in one is never a
      // drag that counts; the check stands anyway, as that is the promise.
      if let tapped, inputMode == .tap || dots.count <= 1 {
        return taps.tap(tapped, at: time, layout: layout, minimumDots: minimumDots)
      }
      guard inputMode != .tap, !dots.isEmpty else {
        taps.resume(at: time)
        return nil
      }
      taps.clear()
      return GestureOutcome(dots: dots, result: dots.count >= minimumDots ? .complete : .tooShort, timeMicroseconds: time)
    case .cancel:
      guard event.slot == ownerSlot else { return nil }
      endTouch()
      taps.resume(at: event.timeMicroseconds)
    case .frame:
      break
    }
    return nil
  }

  /// Confirms a tap entry whose pause is over at `time` (`TapEntry`).
  ///
  /// - Returns: the finished pattern; nil while a finger is down, before the pause
  ///   is over, or with nothing tapped.
  public mutating func confirmTapsIfPaused(at time: UInt64) -> GestureOutcome? {
    guard ownerSlot == nil else { return nil }
    return taps.confirmIfPaused(at: time, minimumDots: minimumDots)
  }

  /// Moves the grid for the next attempt, dropping any gesture and taps: they were
  /// made on the grid where it stood.
  public mutating func place(_ placement: GridPlacement) {
    reset()
    self.placement = placement
  }

  /// Drops any gesture in progress, and the taps.
  public mutating func reset() {
    endTouch()
    taps.clear()
  }

  /// Forgets the owning finger and what it dragged.
  private mutating func endTouch() {
    ownerSlot = nil
    fingerPosition = nil
    tapTarget = nil
    trail.removeAll()
  }

  /// Joins, in order along the segment, every unvisited dot whose hit circle it meets.
  private mutating func joinDots(alongSegmentFrom a: Point, to b: Point) {
    let dx = Int64(b.x.raw) - Int64(a.x.raw)
    let dy = Int64(b.y.raw) - Int64(a.y.raw)
    let lengthSquared = dx * dx + dy * dy
    // Hit circles never overlap (a radius is at most half a cell, dots are a cell and a
    // half apart), so their chords along the segment are disjoint and ordering by the
    // projection of each centre orders them by where the segment enters them. The
    // projection's denominator is the same for every dot, so numerators compare.
    while true {
      var nearest = 0
      var nearestProjection = Int64.max
      for dot in 1...layout.dotCount where !trail.contains(dot) {
        guard let projection = hitProjection(of: dot, a: a, dx: dx, dy: dy, lengthSquared: lengthSquared),
          projection < nearestProjection
        else { continue }
        nearest = dot
        nearestProjection = projection
      }
      guard nearest != 0 else { return }
      join(nearest)
    }
  }

  /// The numerator of the centre's projection onto the segment when the segment passes
  /// inside the dot's hit circle; nil when it misses.
  private func hitProjection(of dot: Int, a: Point, dx: Int64, dy: Int64, lengthSquared: Int64) -> Int64? {
    let c = layout.centre(of: dot, placedAt: placement)
    let fx = Int64(a.x.raw) - Int64(c.x.raw)
    let fy = Int64(a.y.raw) - Int64(c.y.raw)
    let startDistanceSquared = fx * fx + fy * fy
    let projection = -(fx * dx + fy * dy)
    if lengthSquared == 0 || projection <= 0 {
      return startDistanceSquared < hitRadiusSquared ? projection : nil
    }
    if projection >= lengthSquared {
      let ex = fx + dx, ey = fy + dy
      return ex * ex + ey * ey < hitRadiusSquared ? projection : nil
    }
    // Squared distance from the centre to the line, times lengthSquared, compared
    // without division: |f|²·|d|² - (f·d)² < r²·|d|².
    let lhs = Int128(startDistanceSquared) * Int128(lengthSquared) - Int128(projection) * Int128(projection)
    return lhs < Int128(hitRadiusSquared) * Int128(lengthSquared) ? projection : nil
  }

  /// Joins a dot, first filling in the unvisited dots on the straight steps from the last one.
  private mutating func join(_ dot: Int) {
    trail.join(dot, on: layout)
  }
}

/// The greatest common divisor of two non-negative integers (gcd(0, n) = n).
@inlinable public func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
  var a = a, b = b
  while b != 0 { (a, b) = (b, a % b) }
  return a
}
