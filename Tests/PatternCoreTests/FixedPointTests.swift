import XCTest
@testable import PatternCore

final class FixedPointTests: XCTestCase {
  func testRoundedDivisionRoundsHalfAwayFromZero() {
    XCTAssertEqual(roundedDivision(5, 2), 3)
    XCTAssertEqual(roundedDivision(-5, 2), -3)
    XCTAssertEqual(roundedDivision(4, 3), 1)
    XCTAssertEqual(roundedDivision(-4, 3), -1)
    XCTAssertEqual(roundedDivision(5, -2), -3)
  }

  func testProductAndQuotientRoundToNearest() {
    let a = Fixed16(numerator: 3, denominator: 2)  // 1.5
    XCTAssertEqual((a * a).raw, Fixed16(numerator: 9, denominator: 4).raw)
    XCTAssertEqual((Fixed16(1) / 3).raw, 21845)
    XCTAssertEqual((Fixed16(2) / 3).raw, 43691)
    XCTAssertEqual((Fixed16(7) / Fixed16(2)).raw, Fixed16(numerator: 7, denominator: 2).raw)
  }

  func testFloorCeilAndRounded() {
    let v = Fixed16(numerator: -5, denominator: 2)  // -2.5
    XCTAssertEqual(v.floor, -3)
    XCTAssertEqual(v.ceil, -2)
    XCTAssertEqual(v.rounded, -3)
    XCTAssertEqual(Fixed16(numerator: 5, denominator: 2).rounded, 3)
    XCTAssertEqual(Fixed16(4).ceil, 4)
  }

  func testDecimalStringTrimsAndRounds() {
    XCTAssertEqual(Fixed16(96).decimalString, "96")
    XCTAssertEqual(Fixed16(numerator: 288, denominator: 10).decimalString, "28.8")
    XCTAssertEqual(Fixed16(numerator: -1, denominator: 2).decimalString, "-0.5")
    XCTAssertEqual(Fixed16(numerator: 1, denominator: 3).decimalString, "0.3333")
    XCTAssertEqual(Fixed16(raw: 65535).decimalString, "1")
    XCTAssertEqual(Fixed16(raw: 1).decimalString, "0")
    XCTAssertEqual(Fixed16(numerator: 1, denominator: 20).decimalString, "0.05")
  }

  func testIntegerSquareRootIsExactFloorForEveryRange() {
    for v: UInt64 in [0, 1, 2, 3, 4, 15, 16, 17, 1 << 32, (1 << 32) - 1, UInt64.max, UInt64.max - 1] {
      let r = integerSquareRoot(v)
      XCTAssertLessThanOrEqual(r.multipliedReportingOverflow(by: r).partialValue, v, "value \(v)")
      let next = (r + 1).multipliedReportingOverflow(by: r + 1)
      XCTAssertTrue(next.overflow || next.partialValue > v, "value \(v) root \(r)")
    }
    var seed: UInt64 = 12345
    for _ in 0..<10_000 {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      let v = seed >> (seed % 40)
      let r = integerSquareRoot(v)
      XCTAssertTrue(r * r <= v && (r + 1) * (r + 1) > v, "value \(v) root \(r)")
    }
  }

  func testGreatestCommonDivisor() {
    XCTAssertEqual(greatestCommonDivisor(0, 4), 4)
    XCTAssertEqual(greatestCommonDivisor(4, 6), 2)
    XCTAssertEqual(greatestCommonDivisor(2, 1), 1)
    XCTAssertEqual(greatestCommonDivisor(0, 0), 0)
  }
}

final class DecimalIntegerTests: XCTestCase {
  func testAcceptsExactlyDecimalIntegers() {
    XCTAssertEqual(DecimalInteger.parse("0"), 0)
    XCTAssertEqual(DecimalInteger.parse("480"), 480)
    XCTAssertEqual(DecimalInteger.parse("-90"), -90)
    XCTAssertEqual(DecimalInteger.parse("999999999"), 999_999_999)
    for bad in ["", "-", "+5", "1x", "x1", " 1", "1 ", "1.5", "1e3", "1234567890", "--1", "٣"] {
      XCTAssertNil(DecimalInteger.parse(bad), "'\(bad)' is not a decimal integer")
    }
  }
}
