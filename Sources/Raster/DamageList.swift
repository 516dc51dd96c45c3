import PatternCore

/// The parts of a frame that must be redrawn: up to `capacity` rectangles that
/// never overlap or touch, stored inline (no allocation).
///
/// Adding a rectangle merges it with every rectangle it overlaps or touches (the
/// union's bounding box, repeated until nothing touches), so the list stays
/// disjoint and a scene can redraw each entry with it as the clip without drawing
/// any pixel twice. When the list is full the new rectangle is merged into the
/// entry whose box grows least; damage is only ever over-estimated.
///
/// A lock screen changes in a few places per frame (the trail's end, a dot or
/// two, the prompt), so a handful of boxes beats both a full redraw and a
/// region type with arbitrary shapes.
public struct DamageList: RandomAccessCollection, Sendable {
  /// The most rectangles kept apart.
  public static let capacity = 16

  private var storage = InlineArray<16, Rect>(repeating: .empty)
  private var used = 0

  /// An empty list.
  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { used }

  /// The rectangle at a position, 0 to `count - 1`.
  public subscript(position: Int) -> Rect {
    precondition(position >= 0 && position < used, "damage index out of range")
    return storage[position]
  }

  /// The box holding every damaged pixel (empty when nothing is damaged).
  public var bounds: Rect {
    var box = Rect.empty
    for i in 0..<used { box = box.union(storage[i]) }
    return box
  }

  /// Adds a damaged rectangle (an empty one adds nothing).
  public mutating func add(_ rect: Rect) {
    if rect.isEmpty { return }
    var merged = rect
    while true {
      if let i = firstTouching(merged) {
        merged = merged.union(storage[i])
        remove(at: i)
        continue
      }
      if used < DamageList.capacity { break }
      let i = cheapestMerge(with: merged)
      merged = merged.union(storage[i])
      remove(at: i)
    }
    storage[used] = merged
    used += 1
    _checkInvariants()
  }

  /// Adds every rectangle of another list.
  public mutating func add(_ other: DamageList) {
    for rect in other { add(rect) }
  }

  /// Forgets all damage (after a frame is presented).
  public mutating func removeAll() { used = 0 }

  /// Whether two rectangles overlap or share an edge.
  static func touches(_ a: Rect, _ b: Rect) -> Bool {
    a.x <= b.maxX && b.x <= a.maxX && a.y <= b.maxY && b.y <= a.maxY
  }

  private func firstTouching(_ rect: Rect) -> Int? {
    for i in 0..<used where DamageList.touches(storage[i], rect) { return i }
    return nil
  }

  /// The entry whose bounding box with `rect` adds the least area.
  private func cheapestMerge(with rect: Rect) -> Int {
    var best = 0, bestGrowth = Int.max
    for i in 0..<used {
      let e = storage[i], u = e.union(rect)
      let growth = u.width * u.height - e.width * e.height
      if growth < bestGrowth {
        best = i
        bestGrowth = growth
      }
    }
    return best
  }

  private mutating func remove(at index: Int) {
    used -= 1
    storage[index] = storage[used]
  }

  /// Traps if two entries touch or one is empty (checking builds only).
  func _checkInvariants() {
    #if DEBUG
    for i in 0..<used {
      precondition(!storage[i].isEmpty, "empty damage rectangle kept")
      for j in (i + 1)..<Swift.max(i + 1, used) {
        precondition(!DamageList.touches(storage[i], storage[j]), "damage rectangles touch")
      }
    }
    #endif
  }
}
