extension GridLayout {
  /// The dot whose cell holds `point`: the dot nearest to it along each axis, for a
  /// point inside the grid square; nil outside it.
  ///
  /// A tap's target is the whole cell, not the hit circle (0.6 of half a cell by
  /// default), so a finger that cannot aim precisely still lands on the dot it meant.
  /// The cells tile the grid square: the boundaries lie halfway between neighbouring
  /// dots, and the outer cells reach the square's edges.
  public func dot(inCellAt point: Point) -> Int? {
    let left = Fixed16(gridRect.x), top = Fixed16(gridRect.y)
    guard point.x >= left, point.x < Fixed16(gridRect.maxX), point.y >= top, point.y < Fixed16(gridRect.maxY) else {
      return nil
    }
    return dot(row: nearestIndex(point.y) { centre(of: dot(row: $0, column: 0)).y },
               column: nearestIndex(point.x) { centre(of: dot(row: 0, column: $0)).x })
  }

  /// The row or column whose centre line is nearest to `value`; on a boundary
  /// exactly halfway, the lower one.
  private func nearestIndex(_ value: Fixed16, centreOf line: (Int) -> Fixed16) -> Int {
    var index = 0
    while index + 1 < gridSize {
      let a = Int64(line(index).raw), b = Int64(line(index + 1).raw)
      // Past the midpoint (a + b) / 2, compared doubled so nothing is rounded.
      guard 2 * Int64(value.raw) > a + b else { break }
      index += 1
    }
    return index
  }
}
