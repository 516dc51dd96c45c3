import PatternCore

/// Which of a surface's buffers to draw the next frame into, and what of it is out of
/// date. The compositor reads a buffer until it releases it; the frame goes into a
/// released one, which is brought up to date with what changed since it was last
/// drawn (its own stale area) plus the new frame's damage. Pure bookkeeping.
public struct BufferDamage: Sendable {
  /// Per buffer: whether the compositor still holds it.
  public private(set) var busy: [Bool]
  /// Per buffer: what changed in the frames drawn since it was last drawn into.
  public private(set) var stale: [Rect]

  /// `count` buffers, all free and wholly out of date (`full`: the frame's area).
  public init(count: Int, full: Rect) {
    busy = Array(repeating: false, count: count)
    stale = Array(repeating: full, count: count)
  }

  /// A buffer the compositor does not hold, if one is free.
  public var free: Int? {
    var index = 0
    while index < busy.count {
      if !busy[index] { return index }
      index += 1
    }
    return nil
  }

  /// Draws a frame with `damage` into buffer `index`: returns the area to copy into it
  /// and marks it held; every other buffer now also misses `damage`.
  public mutating func draw(into index: Int, damage: Rect) -> Rect {
    let area = BufferDamage.joined(stale[index], damage)
    var other = 0
    while other < stale.count {
      if other != index { stale[other] = BufferDamage.joined(stale[other], damage) }
      other += 1
    }
    stale[index] = .empty
    busy[index] = true
    return area
  }

  private static func joined(_ a: Rect, _ b: Rect) -> Rect { a.isEmpty ? b : b.isEmpty ? a : a.union(b) }

  /// The compositor released buffer `index`.
  public mutating func release(_ index: Int) {
    if busy.indices.contains(index) { busy[index] = false }
  }
}
