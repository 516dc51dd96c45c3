import PatternCore
import XCTest

@testable import Raster

/// `GradientSteps` gives every row exactly `Canvas.gradientColor`'s colour.
final class GradientStepsTests: XCTestCase {
  func testSteppedRowsEqualDividedRows() {
    var random = SeededRandom(state: 0x6AAD_1E57)
    func byte() -> UInt8 { UInt8(random.int(0...255)) }
    func color() -> Color { Color(r: byte(), g: byte(), b: byte(), a: byte()) }
    for trial in 0..<3000 {
      let top = color(), bottom = trial % 7 == 0 ? top : color()
      let steps = trial < 20 ? trial - 2 : Int(random.int(0...2200))
      let start = steps > 0 ? Int(random.int(0...Int64(steps))) : 0
      var rows = GradientSteps(top: top, bottom: bottom, steps: steps, step: start)
      for step in start...max(start, steps) {
        XCTAssertEqual(rows.color, Canvas<XRGB8888>.gradientColor(top: top, bottom: bottom, step: step, of: steps),
                       "step \(step) of \(steps) from \(top) to \(bottom)")
        rows.advance()
      }
    }
  }
}
