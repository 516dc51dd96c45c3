import PatternCore

/// The patterns an enrolment refuses: the head of the attacker's order (`ChoiceModel`),
/// closed under the grid's symmetries and reversal, so that a shape is refused in every
/// orientation and direction or in none.
///
/// The list is the first `headSize` patterns of the order with every image of each, and
/// every image of every named shape (on 3x3 those are in the head's images already; on
/// larger grids the many short patterns could push a letter out of the head), so it holds
/// more than `headSize` patterns (`count`).
public struct PatternBlocklist: Sendable {
  /// How much of the order's head enrolments refuse by default (with its images);
  /// docs/security.md says why this size.
  public static let standardSize = 300
  /// The largest head a system may widen it to.
  public static let largestSize = 20_000

  public let gridSize: Int
  /// The refused patterns, sorted by `ChoiceModel.precedes` for a binary search.
  private let sorted: [DotSequence]
  /// How many patterns it refuses.
  public var count: Int { sorted.count }

  /// - Parameters:
  ///   - headSize: how many patterns of the order's head are refused, with their images.
  public init(model: ChoiceModel, headSize: Int = PatternBlocklist.standardSize) {
    gridSize = model.gridSize
    var refused: [DotSequence] = []
    for pattern in model.head(headSize) { refused += GridSymmetry.images(of: pattern, gridSize: model.gridSize) }
    for shape in model.namedShapes where shape.count >= model.minimumDots { refused.append(shape) }
    // Sorted, then each pattern once: images of patterns near each other in the order
    // are often the same.
    refused.sort(by: ChoiceModel.precedes)
    var unique: [DotSequence] = []
    unique.reserveCapacity(refused.count)
    for pattern in refused where unique.last != pattern { unique.append(pattern) }
    refused = unique
    sorted = refused
  }

  /// Whether an enrolment refuses `dots`.
  public func refuses(_ dots: DotSequence) -> Bool {
    var low = 0, high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if ChoiceModel.precedes(sorted[middle], dots) { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == dots
  }

  /// Every refused pattern, in the order of `ChoiceModel.precedes`.
  public var patterns: [DotSequence] { sorted }
}
