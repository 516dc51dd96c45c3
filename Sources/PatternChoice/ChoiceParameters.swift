/// The figures the model of how people choose patterns is built from, each with where
/// it comes from. `docs/pattern-choice-model.tsv` lists the same figures with their
/// sources, and a test keeps the two equal.
///
/// Probabilities are kept as integer weights (per mille, or relative weights): the
/// model's arithmetic is integer only, so the order it gives is the same on every
/// architecture.
public enum ChoiceParameters {
  // MARK: Where a pattern starts (Løge, NTNU 2015: 3,393 patterns)

  /// Per mille of patterns starting at the top-left dot: 44%.
  public static let startTopLeftPerMille = 440
  /// Per mille starting at any corner (the top-left included): 77%.
  public static let startAnyCornerPerMille = 770
  /// Per mille starting at the centre (or, on a larger grid, each inner dot): the rest
  /// (23%) is not split further in the figures we carry, so this model gives the centre
  /// 3% and shares the remainder evenly among the edge dots (an assumption).
  public static let startCentrePerMille = 30

  // MARK: How long it is (Løge 2015; shares beyond 4 dots are this model's assumption)

  /// Per mille of patterns with 4, 5, 6, 7, 8 and 9 or more dots. 4 dots is the most
  /// common length (1,624 of 3,393, 47.9%); the decreasing shares of longer ones are
  /// an assumption consistent with that ordering.
  public static let lengthPerMille = [479, 160, 130, 100, 70, 61]
  /// On grids larger than 3x3, the chance (per mille) of stopping at each length from
  /// 9 dots on: an assumption (people rarely use the extra dots).
  public static let stopPerMilleFromNineDots = 500

  // MARK: Each move (Uellenbeck et al., CCS 2013; Aviv et al., ACSAC 2015: short, straight moves, left to right and top to bottom dominate; the weights are this model's)

  /// Relative weight of a move to a dot beside the last one (same row or column).
  public static let besideWeight = 8
  /// Relative weight of a move to a diagonal neighbour.
  public static let diagonalWeight = 4
  /// Relative weight of a knight's move (two along, one across).
  public static let knightWeight = 1
  /// Relative weight of a longer move (over a joined dot, or further on larger grids).
  public static let longWeight = 1
  /// Factor for a move that goes on in the direction of the one before (a straight line).
  public static let straightFactor = 3
  /// Factor for a move to the right, down, or both (reading direction).
  public static let readingDirectionFactor = 2

  // MARK: Named shapes (L, Z, N, M, W, C, S, U, 7, rows, columns, the box; Aviv et al. 2015, Løge 2015)

  /// An image of a named shape costs this many millibits plus its start dot's cost:
  /// about as likely as the most common Markov patterns' tail (an assumption, chosen so
  /// that every image of every named shape falls in the blocklist's head).
  public static let namedShapeMillibits = 9_000

  /// Every figure above by name, for the test that compares it with the data file.
  public static var table: [(name: String, value: Int)] {
    var rows: [(name: String, value: Int)] = [
      ("start-top-left-per-mille", startTopLeftPerMille),
      ("start-any-corner-per-mille", startAnyCornerPerMille),
      ("start-centre-per-mille", startCentrePerMille),
    ]
    for (i, share) in lengthPerMille.enumerated() { rows.append(("length-\(i + 4)-per-mille", share)) }
    rows += [
      ("stop-per-mille-from-9-dots", stopPerMilleFromNineDots),
      ("beside-weight", besideWeight),
      ("diagonal-weight", diagonalWeight),
      ("knight-weight", knightWeight),
      ("long-weight", longWeight),
      ("straight-factor", straightFactor),
      ("reading-direction-factor", readingDirectionFactor),
      ("named-shape-millibits", namedShapeMillibits),
    ]
    return rows
  }
}
