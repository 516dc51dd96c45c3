import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// Argon2id round trips, canonical encoding, parsing typed patterns, fingerprints.
final class PatternHashTests: XCTestCase {
  typealias S = VaultTestSupport

  func canonicalText(_ dots: [Int], grid: Int) -> String {
    let bytes = PatternText.canonical(DotSequence(dots), gridSize: grid)
    return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  func testCanonicalEncodingNamesGridAndDashedDots() {
    XCTAssertEqual(canonicalText([1, 2, 3, 6, 9], grid: 3), "3x3:1-2-3-6-9")
    XCTAssertEqual(canonicalText([49, 1, 10], grid: 7), "7x7:49-1-10")
  }

  func testCorrectPatternVerifiesAndEveryOtherDoesNot() throws {
    let enrolled = try EnrolledPattern(dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    XCTAssertTrue(enrolled.matches(DotSequence([6, 3, 8, 1])))
    for wrong in [[8, 4, 2, 9], [9, 6, 3, 2, 1], [1, 2, 3, 6, 9, 8], [2, 1, 3, 6, 9], [1, 2, 3, 6, 8]] {
      XCTAssertFalse(enrolled.matches(DotSequence(wrong)), "\(wrong)")
    }
  }

  func testSamePatternOnAnotherGridDoesNotVerify() throws {
    let on3 = try EnrolledPattern(dots: DotSequence([8, 4, 2, 9]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    let on4 = try EnrolledPattern(dots: DotSequence([8, 4, 2, 9]), gridSize: 4, minimumDots: 4, cost: S.cheapCost)
    XCTAssertTrue(on4.matches(DotSequence([8, 4, 2, 9])))
    XCTAssertNotEqual(on3.encode(), on4.encode())
    // Swap the grid line: the hash was made with "3x3:", so the 4x4 claim must not verify.
    let forged = try EnrolledPattern.decode(
      resealed(on3.encode(), replacing: "grid 3", with: "grid 4"), path: "forged")
    XCTAssertFalse(forged.matches(DotSequence([8, 4, 2, 9])))
  }

  func testHashesAreSaltedAndNeverHoldThePattern() throws {
    let a = try EnrolledPattern(dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    let b = try EnrolledPattern(dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    XCTAssertNotEqual(a.encode(), b.encode(), "random salt and key")
    let text = String(decoding: a.encode(), as: UTF8.self)
    XCTAssertFalse(text.contains("1-2-3-6-9"))
    XCTAssertTrue(text.contains("$argon2id$v=19$m=8,t=1,p=1$"), text)
  }

  func testStandardCostIsArgon2idWithThirtyTwoMebibytesAndTwoPasses() throws {
    let enrolled = try EnrolledPattern(dots: DotSequence([6, 2, 4, 9]), gridSize: 3, minimumDots: 4, cost: .standard)
    XCTAssertTrue(String(decoding: enrolled.encode(), as: UTF8.self).contains("$argon2id$v=19$m=32768,t=2,p=1$"))
    XCTAssertTrue(enrolled.matches(DotSequence([6, 2, 4, 9])))
  }

  func testCostOutsideLibsodiumLimitsIsRefused() {
    XCTAssertThrowsError(try HashCost(passes: 0, memoryBytes: 1 << 20))
    XCTAssertThrowsError(try HashCost(passes: 1, memoryBytes: 1024))
  }

  func testPatternShorterThanMinimumIsNotEnrolled() {
    XCTAssertThrowsError(try EnrolledPattern(dots: DotSequence([1, 2, 3]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)) { error in
      XCTAssertEqual(error as? VaultError, .patternTooShort(dots: 3, minimum: 4))
    }
  }

  func testFingerprintIsKeyedPerInstallAndStable() throws {
    let a = try EnrolledPattern(dots: DotSequence([8, 4, 2, 9]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    let b = try EnrolledPattern(dots: DotSequence([8, 4, 2, 9]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    XCTAssertEqual(a.fingerprint(of: DotSequence([4, 5, 6, 3])), a.fingerprint(of: DotSequence([4, 5, 6, 3])))
    XCTAssertNotEqual(a.fingerprint(of: DotSequence([4, 5, 6, 3])), a.fingerprint(of: DotSequence([4, 5, 6, 2])))
    XCTAssertNotEqual(a.fingerprint(of: DotSequence([4, 5, 6, 3])), b.fingerprint(of: DotSequence([4, 5, 6, 3])))
  }

  func parse(_ text: String, grid: Int = 3) throws -> [Int] {
    var bytes = SecretBytes(capacity: 300)
    for byte in text.utf8 { bytes.append(byte) }
    let dots = try PatternText.parse(bytes, gridSize: grid)
    return (0..<dots.count).map { dots[$0] }
  }

  func testTypedPatternParsesWithOptionalLineEnd() throws {
    XCTAssertEqual(try parse("1-2-3-6-9"), [1, 2, 3, 6, 9])
    XCTAssertEqual(try parse("1-2-3-6-9\n"), [1, 2, 3, 6, 9])
    XCTAssertEqual(try parse("7-5-3\r\n"), [7, 5, 3])
    XCTAssertEqual(try parse("16-1-10", grid: 4), [16, 1, 10])
  }

  func testMalformedTypedPatternsAreRefusedWithoutQuotingThem() {
    let bad = ["", "\n", "1--2", "-1-2", "1-2-", "1-2-2", "0-1-2", "1-10-2", "01-2", "1 2 3", "1-2\n3-4", "1-2-3-6-9\n\n", "123", "a-b", "1-2-3-6-9 "]
    for text in bad {
      XCTAssertThrowsError(try parse(text), "\(text.debugDescription)") { error in
        guard case .badPattern(let problem) = error as? VaultError else { return XCTFail("\(error)") }
        XCTAssertFalse(problem.contains("1-2"), problem)
      }
    }
  }

  /// Replaces text in a sealed state file and recomputes nothing: returns bytes whose
  /// checksum is made valid again by sealing through the public encoder's format.
  func resealed(_ bytes: [UInt8], replacing old: String, with new: String) -> [UInt8] {
    var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    lines.removeLast()  // checksum
    lines = lines.map { $0 == old ? new : $0 }
    return StateFileTests.seal(lines)
  }
}
