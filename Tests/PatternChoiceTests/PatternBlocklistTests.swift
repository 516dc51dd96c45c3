import Foundation
import PatternChoice
import PatternCore
import XCTest

/// The standard blocklist over all 389,112 3x3 patterns: its documented size, closed under
/// the grid's symmetries and reversal, and the head of the order in it.
final class PatternBlocklistTests: XCTestCase {
  static let standard = PatternBlocklist(model: EveryPattern.model)

  func testItHasTheDocumentedSize() throws {
    let documented = try ParameterProvenanceTests.rows()["blocklist-standard-count"]
    XCTAssertEqual(PatternBlocklistTests.standard.count, documented)
    XCTAssertGreaterThanOrEqual(PatternBlocklistTests.standard.count, PatternBlocklist.standardSize)
    XCTAssertGreaterThanOrEqual(PatternBlocklist.standardSize, 100, "at least the head the SOUPS 2021 study recommends")
  }

  func testOverEveryPatternTheListIsClosedUnderSymmetryAndReversal() throws {
    let order = try EveryPattern.inOrder()
    let list = PatternBlocklistTests.standard
    var refused = 0
    for entry in order where list.refuses(entry.dots) {
      refused += 1
      for image in GridSymmetry.images(of: entry.dots, gridSize: 3) {
        XCTAssertTrue(list.refuses(image), "\(entry.dots.dashed) is refused, its image \(image.dashed) is not")
      }
    }
    XCTAssertEqual(refused, list.count, "every listed pattern is a drawable 3x3 pattern")
  }

  func testTheHeadOfTheOrderIsRefusedAndTheTailIsNot() throws {
    let order = try EveryPattern.inOrder()
    let list = PatternBlocklistTests.standard
    for entry in order.prefix(PatternBlocklist.standardSize) {
      XCTAssertTrue(list.refuses(entry.dots), entry.dots.dashed)
    }
    for entry in order.suffix(10_000) { XCTAssertFalse(list.refuses(entry.dots), entry.dots.dashed) }
    for example in [[1, 2, 3, 6], [1, 2, 3, 6, 9], [1, 4, 7, 8, 9], [1, 2, 3, 5, 7, 8, 9]] {
      XCTAssertTrue(list.refuses(DotSequence(example)), "\(example)")
    }
  }

  func testAWiderListHoldsTheStandardOne() {
    let wider = PatternBlocklist(model: EveryPattern.model, headSize: 1_000)
    XCTAssertGreaterThan(wider.count, PatternBlocklistTests.standard.count)
    for pattern in PatternBlocklistTests.standard.patterns { XCTAssertTrue(wider.refuses(pattern), pattern.dashed) }
  }

  /// What the list buys, in the model's own terms: an attacker's 20 guesses after the
  /// blocked patterns find under 2% of the patterns people then choose (19% without it).
  func testTwentyGuessesPastTheListFindLittle() throws {
    let order = try EveryPattern.inOrder()
    let list = PatternBlocklistTests.standard
    var remaining = 0.0, firstTwenty = 0.0, taken = 0
    for entry in order where !list.refuses(entry.dots) {
      let p = pow(2.0, -Double(entry.cost) / 1000)
      remaining += p
      if taken < 20 { firstTwenty += p; taken += 1 }
    }
    XCTAssertLessThan(firstTwenty / remaining, 0.02)
  }
}
