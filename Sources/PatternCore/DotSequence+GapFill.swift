extension DotSequence {
  /// Joins a dot as a finger reaching it from the last dot would: first the unvisited
  /// dots on the straight steps in between, where a step is the row and column
  /// distance divided by their gcd (1→3 adds 2, 1→9 adds 5, a knight's move adds
  /// nothing), then the dot itself. A dot already joined stays where it is.
  ///
  /// Drags and taps share this, so a pattern is the same however it was entered.
  public mutating func join(_ dot: Int, on layout: GridLayout) {
    join(dot, gridSize: layout.gridSize)
  }

  /// `join(_:on:)` for a grid of `gridSize` dots a side, without a panel: what a typed
  /// pattern is checked against.
  public mutating func join(_ dot: Int, gridSize: Int) {
    if let previous = last, let passed = DotSequence.dotsPassed(from: previous, to: dot, gridSize: gridSize) {
      for k in 1..<passed.steps {
        append((passed.fromRow + k * passed.rowDistance / passed.steps) * gridSize
          + passed.fromColumn + k * passed.columnDistance / passed.steps + 1)
      }
    }
    append(dot)
  }

  /// The first dot that drawing these dots in order would join although it is not
  /// next in the sequence: the unvisited dot a move passes over. Nil when the
  /// sequence is exactly what a finger drawing it produces.
  ///
  /// `set-pattern` refuses such a sequence: it would store a pattern that no drawing
  /// can match, since the screen always fills the passed-over dot in.
  public func firstPassedOverDot(gridSize: Int) -> (move: (from: Int, to: Int), passedOver: Int)? {
    var drawn = DotSequence()
    for i in 0..<count {
      let dot = self[i]
      let before = drawn.count
      drawn.join(dot, gridSize: gridSize)
      if drawn.count > before + 1, let from = i > 0 ? self[i - 1] : nil {
        return ((from, dot), drawn[before])
      }
    }
    return nil
  }

  /// The straight steps between two dots, when there is more than one.
  private static func dotsPassed(from: Int, to: Int, gridSize: Int)
    -> (fromRow: Int, fromColumn: Int, rowDistance: Int, columnDistance: Int, steps: Int)?
  {
    let fromRow = (from - 1) / gridSize, fromColumn = (from - 1) % gridSize
    let dr = (to - 1) / gridSize - fromRow, dc = (to - 1) % gridSize - fromColumn
    let steps = greatestCommonDivisor(abs(dr), abs(dc))
    return steps > 1 ? (fromRow, fromColumn, dr, dc, steps) : nil
  }
}
