/// Every move between two dots of a grid, worked out once per model: its weight before
/// the straight-on factor, its direction, and the dots it passes over. The walk over
/// the attacker's order asks which moves are open at each of up to a million steps; with
/// the table that is a bit test per dot instead of a gcd and a division.
struct MoveTable: Sendable {
  let gridSize: Int
  /// Indexed by `from * dots + to` (dots from 0).
  private let weights: [Int]
  private let directions: [Int]
  private let passedOver: [UInt64]

  init(gridSize: Int) {
    self.gridSize = gridSize
    let dots = gridSize * gridSize
    var weights = [Int](repeating: 0, count: dots * dots)
    var directions = [Int](repeating: 0, count: dots * dots)
    var passedOver = [UInt64](repeating: 0, count: dots * dots)
    for from in 0..<dots {
      for to in 0..<dots where to != from {
        let rows = to / gridSize - from / gridSize, columns = to % gridSize - from % gridSize
        let steps = gcd(abs(rows), abs(columns))
        var between: UInt64 = 0
        for k in 1..<max(steps, 1) {
          let dot = (from / gridSize + k * rows / steps) * gridSize + from % gridSize + k * columns / steps
          between |= 1 << UInt64(dot)
        }
        var weight: Int
        switch (abs(rows), abs(columns)) {
        case (0, 1), (1, 0): weight = ChoiceParameters.besideWeight
        case (1, 1): weight = ChoiceParameters.diagonalWeight
        case (1, 2), (2, 1): weight = ChoiceParameters.knightWeight
        default: weight = ChoiceParameters.longWeight
        }
        if rows >= 0 && columns >= 0 { weight *= ChoiceParameters.readingDirectionFactor }
        weights[from * dots + to] = weight
        directions[from * dots + to] = MoveTable.directionCode(rows: rows, columns: columns)
        passedOver[from * dots + to] = between
      }
    }
    self.weights = weights
    self.directions = directions
    self.passedOver = passedOver
  }

  /// Calls `body` with each dot (from 1) a finger can join after `last` when `joined`
  /// holds the joined dots (bit n - 1 for dot n), and the move's weight, straight on
  /// from `previousDirection` (a direction code, or -1 for none) counting more.
  @inline(__always)
  func forEachOpenMove(from last: Int, joined: UInt64, previousDirection: Int, _ body: (Int, Int) -> Void) {
    let dots = gridSize * gridSize
    let row = (last - 1) * dots
    for to in 0..<dots where joined & (1 << UInt64(to)) == 0 {
      let between = passedOver[row + to]
      if between & ~joined != 0 { continue }
      var weight = weights[row + to]
      if directions[row + to] == previousDirection { weight *= ChoiceParameters.straightFactor }
      body(to + 1, weight)
    }
  }

  /// The direction code of the move from dot `from` to dot `to` (both from 1).
  func direction(from: Int, to: Int) -> Int {
    directions[(from - 1) * gridSize * gridSize + (to - 1)]
  }

  /// A move's row and column steps divided by their gcd, as one number.
  private static func directionCode(rows: Int, columns: Int) -> Int {
    let g = max(gcd(abs(rows), abs(columns)), 1)
    return (rows / g + 8) * 17 + (columns / g + 8)
  }
}
