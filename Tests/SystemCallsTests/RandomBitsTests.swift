import SystemCalls
import XCTest

/// The kernel's random source, as the live lock's moving grid draws from it.
final class RandomBitsTests: XCTestCase {
  func testBitsComeAndDiffer() throws {
    var seen = Set<UInt64>()
    for _ in 0..<64 { seen.insert(try RandomBits.next()) }
    // 64 draws of 64 bits: a repeat would mean the source is not random at all.
    XCTAssertEqual(seen.count, 64)
    // Every bit position is set somewhere and clear somewhere.
    XCTAssertEqual(seen.reduce(0, |), UInt64.max)
    XCTAssertEqual(seen.reduce(UInt64.max, &), 0)
  }
}
