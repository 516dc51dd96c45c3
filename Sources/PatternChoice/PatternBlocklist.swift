import PatternCore

/// The patterns an enrolment refuses: the head of the attacker's order (`ChoiceModel`),
/// closed under the grid's symmetries and reversal, so that a shape is refused in every
/// orientation and direction or in none.
///
/// Whole images are added in the order's order until at least `size` patterns are in,
/// so the list holds `size` or a few more (`count`).
public struct PatternBlocklist: Sendable {
  /// The size enrolments refuse by default; docs/security.md says why this size.
  public static let standardSize = 1_000
  /// The largest size a system may widen it to.
  public static let largestSize = 20_000

  public let gridSize: Int
  /// The refused patterns, sorted by `ChoiceModel.precedes` for a binary search.
  private let sorted: [DotSequence]
  /// How many patterns it refuses.
  public var count: Int { sorted.count }

  /// - Parameters:
  ///   - size: at least this many patterns are refused (whole images are kept together).
  public init(model: ChoiceModel, size: Int = PatternBlocklist.standardSize) {
    gridSize = model.gridSize
    var refused: [DotSequence] = []
    for pattern in model.head(size) where refused.count < size {
      for image in GridSymmetry.images(of: pattern, gridSize: model.gridSize) where !refused.contains(image) {
        refused.append(image)
      }
    }
    refused.sort(by: ChoiceModel.precedes)
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
