import PatternChoice
import PatternCore
import XCTest

final class HeadOfOrderTests: XCTestCase {
  /// The order's first patterns, as the model gives them today: a change of a parameter
  /// or of the arithmetic shows here first, and the same list on every architecture.
  func testTheHeadIsTheSameEveryTime() {
    let head = ChoiceModel(gridSize: 3).head(12).map { $0.dashed }
    XCTAssertEqual(head, [
      "1-2-3-6", "1-4-7-8", "3-6-9-8", "7-8-9-6", "1-2-3-6-9", "1-4-7-8-9",
      "1-2-3-5", "1-2-5-8", "1-4-5-6", "1-4-7-5", "9-6-3-2", "9-8-7-4",
    ])
    XCTAssertEqual(ChoiceModel(gridSize: 3).head(12).map { $0.dashed }, head)
  }
}
