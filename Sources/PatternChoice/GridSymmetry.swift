import PatternCore

/// The eight symmetries of a square grid (four quarter turns, each with or without a
/// mirror), and drawing a pattern backwards. A pattern's images under them are the same
/// shape to a person, so a list of common patterns holds all of them or none.
public enum GridSymmetry {
  /// A dot's image under symmetry `index` (0..<8) on a grid of `gridSize`: index 0 is the
  /// identity, bit 2 mirrors left to right, the low two bits turn by quarter turns.
  public static func image(of dot: Int, symmetry index: Int, gridSize: Int) -> Int {
    var row = (dot - 1) / gridSize
    var column = (dot - 1) % gridSize
    let last = gridSize - 1
    if index & 4 != 0 { column = last - column }
    for _ in 0..<(index & 3) { (row, column) = (column, last - row) }
    return row * gridSize + column + 1
  }

  /// Every distinct image of `dots` under the eight symmetries and reversal, `dots`
  /// first. Each image of a drawable pattern is drawable: the symmetries keep which
  /// dots lie between which.
  public static func images(of dots: DotSequence, gridSize: Int) -> [DotSequence] {
    var found: [DotSequence] = []
    for reversed in [false, true] {
      for index in 0..<8 {
        var image = DotSequence()
        for i in 0..<dots.count {
          let dot = dots[reversed ? dots.count - 1 - i : i]
          image.append(GridSymmetry.image(of: dot, symmetry: index, gridSize: gridSize))
        }
        if !found.contains(image) { found.append(image) }
      }
    }
    return found
  }
}
