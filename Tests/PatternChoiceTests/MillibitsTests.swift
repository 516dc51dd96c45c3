import Foundation
import XCTest

@testable import PatternChoice

/// The integer logarithm the costs are made of agrees with the floating-point one to
/// within two thousandths of a bit.
final class MillibitsTests: XCTestCase {
  func testIntegerLogarithmMatchesFloatingPoint() {
    for x in Array(1...5_000) + [65_536, 1_000_000, 123_456_789] {
      let expected = Int((log2(Double(x)) * 1000).rounded())
      XCTAssertEqual(Double(Millibits.log2Millibits(x)), Double(expected), accuracy: 2, "log2(\(x))")
    }
    XCTAssertEqual(Millibits.of(1, in: 2), 1000)
    XCTAssertEqual(Millibits.of(44, in: 100), Int((-log2(0.44) * 1000).rounded()), accuracy: 2)
  }
}

private func XCTAssertEqual(_ a: Int, _ b: Int, accuracy: Int, file: StaticString = #filePath, line: UInt = #line) {
  XCTAssertLessThanOrEqual(abs(a - b), accuracy, "\(a) vs \(b)", file: file, line: line)
}
