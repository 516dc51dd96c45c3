import CommandTestSupport
import PatternChoice
import PatternCore
import XCTest

/// Every 3x3 pattern of 4 dots or more with its cost, in the attacker's order: walked
/// once for all the tests that look at the whole order.
enum EveryPattern {
  static let model = ChoiceModel(gridSize: 3)

  /// Every pattern in the attacker's order. The walk repeats the same integer code
  /// 389,112 times, which takes most of a minute under AddressSanitizer and shows it
  /// nothing the other tests of the model do not: there the tests that need the whole
  /// order are skipped (`SanitizerRun`), and the plain run walks it.
  static func inOrder() throws -> [(dots: DotSequence, cost: Int)] {
    try XCTSkipIf(SanitizerRun.isActive, "the whole attacker's order is walked in the plain run, not under AddressSanitizer")
    return walked
  }

  private static let walked: [(dots: DotSequence, cost: Int)] = {
    var all: [(dots: DotSequence, cost: Int)] = []
    all.reserveCapacity(389_112)
    model.forEachPattern(costingAtMost: Int.max) { dots, cost in
      all.append((dots, cost))
      return true
    }
    all.sort { $0.cost != $1.cost ? $0.cost < $1.cost : ChoiceModel.precedes($0.dots, $1.dots) }
    return all
  }()

  /// The mean place (from 1) of the patterns `matching` picks.
  static func meanPlace(where matching: (DotSequence) -> Bool) throws -> Double {
    var sum = 0.0, count = 0.0
    for (i, entry) in try inOrder().enumerated() where matching(entry.dots) {
      sum += Double(i + 1)
      count += 1
    }
    return sum / count
  }
}
