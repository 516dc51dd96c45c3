import PatternCore

/// The shapes people draw as letters and figures (L, Z, N, M, W, C, S, U, 7, rows and
/// columns, the box), drawn on a 3x3 grid as the studies show them; `ChoiceModel`
/// gives each of their images under the grid's symmetries and reversal a place near the
/// head of the attacker's order. On a larger grid the same shapes are drawn through its
/// corners and middle lines (`scaled(to:)`).
public enum NamedShapes {
  /// Each shape on the 3x3 grid, in one orientation (its images are derived).
  public static let onThreeByThree: [(name: String, dots: [Int])] = [
    ("L", [1, 4, 7, 8, 9]),
    ("Z", [1, 2, 3, 5, 7, 8, 9]),
    ("N", [7, 4, 1, 5, 9, 6, 3]),
    ("M", [7, 4, 1, 5, 3, 6, 9]),
    ("C", [3, 2, 1, 4, 7, 8, 9]),
    ("S", [3, 2, 1, 4, 5, 6, 9, 8, 7]),
    ("U", [1, 4, 7, 8, 9, 6, 3]),
    ("7", [1, 2, 3, 5, 7]),
    ("short L", [1, 4, 7, 8]),
    ("two rows", [1, 2, 3, 4, 5, 6]),
    ("three rows", [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ("box", [1, 2, 3, 6, 9, 8, 7, 4]),
    ("square", [1, 2, 5, 4]),
    ("cross stroke", [1, 5, 9, 6, 3]),
    ("triangle", [1, 5, 9, 8, 7]),
  ]

  /// The shapes on a grid of `gridSize` dots a side: the 3x3 drawings with each row and
  /// column index mapped to the first, middle and last line, the moves in between
  /// filled in as a finger fills them.
  public static func scaled(to gridSize: Int) -> [DotSequence] {
    onThreeByThree.map { shape in
      var dots = DotSequence()
      for dot in shape.dots {
        let line = [0, gridSize / 2, gridSize - 1]
        let row = line[(dot - 1) / 3], column = line[(dot - 1) % 3]
        dots.join(row * gridSize + column + 1, gridSize: gridSize)
      }
      return dots
    }
  }

  /// Every image of every shape on the grid, each once.
  public static func allImages(gridSize: Int) -> [DotSequence] {
    var all: [DotSequence] = []
    for shape in scaled(to: gridSize) {
      for image in GridSymmetry.images(of: shape, gridSize: gridSize) where !all.contains(image) { all.append(image) }
    }
    return all
  }
}
