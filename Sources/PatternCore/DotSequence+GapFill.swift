extension DotSequence {
  /// Joins a dot as a finger reaching it from the last dot would: first the unvisited
  /// dots on the straight steps in between, where a step is the row and column
  /// distance divided by their gcd (1→3 adds 2, 1→9 adds 5, a knight's move adds
  /// nothing), then the dot itself. A dot already joined stays where it is.
  ///
  /// Drags and taps share this, so a pattern is the same however it was entered.
  public mutating func join(_ dot: Int, on layout: GridLayout) {
    if let previous = last {
      let from = layout.rowAndColumn(of: previous), to = layout.rowAndColumn(of: dot)
      let dr = to.row - from.row, dc = to.column - from.column
      let steps = greatestCommonDivisor(abs(dr), abs(dc))
      if steps > 1 {
        for k in 1..<steps {
          append(layout.dot(row: from.row + k * dr / steps, column: from.column + k * dc / steps))
        }
      }
    }
    append(dot)
  }
}
