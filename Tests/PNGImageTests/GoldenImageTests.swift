import CommandTestSupport
import Foundation
import GoldenSupport
import PNGImage
import Raster
import XCTest

final class GoldenImageTests: XCTestCase {
  private var directory = ""
  private var golden: String { directory + "/area/case-a.png" }

  override func setUpWithError() throws { directory = try makeTemporaryDirectory(prefix: "golden-tests").path }

  /// A 4x2 XRGB8888 frame: pixel i has red 10*i, green 7, blue 200.
  private var frame: [UInt8] { (0..<8).flatMap { [200, 7, UInt8(10 * $0), 0] as [UInt8] } }

  private func compare(_ frame: [UInt8], record: Bool) throws -> GoldenOutcome {
    try GoldenImage.compare(frame, width: 4, height: 2, stride: 16, format: .xrgb8888, goldenPath: golden, record: record)
  }

  func testMissingGoldenIsReportedAndNotWrittenWithoutRecording() throws {
    XCTAssertEqual(try compare(frame, record: false), .missing(goldenPath: golden))
    XCTAssertFalse(FileManager.default.fileExists(atPath: golden))
  }

  func testRecordingWritesAMissingGoldenThatThenMatches() throws {
    XCTAssertEqual(try compare(frame, record: true), .recorded(goldenPath: golden))
    XCTAssertEqual(try compare(frame, record: false), .matched)
  }

  func testRecordingNeverOverwritesAnExistingGolden() throws {
    _ = try compare(frame, record: true)
    var changed = frame
    changed[0] = 0
    guard case .mismatch = try compare(changed, record: true) else { return XCTFail("expected a mismatch") }
    XCTAssertEqual(try compare(frame, record: false), .matched)
  }

  func testMismatchNamesFirstBadPixelAndWritesActualAndDiffImages() throws {
    _ = try compare(frame, record: true)
    var changed = frame
    changed[(1 * 4 + 2) * 4 + 1] = 99  // pixel (2, 1): green 7 -> 99
    changed[(1 * 4 + 3) * 4 + 2] = 1  // pixel (3, 1): red 70 -> 1
    let outcome = try compare(changed, record: false)
    let base = directory + "/area/case-a"
    XCTAssertEqual(
      outcome,
      .mismatch(
        GoldenMismatch(
          goldenPath: golden, actualPath: base + ".actual.png", diffPath: base + ".diff.png",
          x: 2, y: 1, expected: 0x3C_07C8, actual: 0x3C_63C8, differingPixels: 2)))
    let actual = try PNGFile.read(from: base + ".actual.png")
    XCTAssertEqual(actual.pixel(x: 2, y: 1).green, 99)
    let diff = try PNGFile.read(from: base + ".diff.png")
    XCTAssertTrue(diff.pixel(x: 2, y: 1) == (255, 0, 0, 255))
    XCTAssertTrue(diff.pixel(x: 3, y: 1) == (255, 0, 0, 255))
    let same = diff.pixel(x: 0, y: 0)
    XCTAssertTrue(same.red == same.green && same.green == same.blue, "unchanged pixels are grey")
  }

  func testAMatchRemovesStaleActualAndDiffImages() throws {
    _ = try compare(frame, record: true)
    var changed = frame
    changed[0] = 1
    _ = try compare(changed, record: false)
    let base = directory + "/area/case-a"
    XCTAssertTrue(FileManager.default.fileExists(atPath: base + ".diff.png"))
    XCTAssertEqual(try compare(frame, record: false), .matched)
    XCTAssertFalse(FileManager.default.fileExists(atPath: base + ".actual.png"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: base + ".diff.png"))
  }

  func testAGoldenOfAnotherSizeIsASizeMismatch() throws {
    _ = try compare(frame, record: true)
    let outcome = try GoldenImage.compare(
      Array(frame.prefix(16)), width: 4, height: 1, stride: 16, format: .xrgb8888, goldenPath: golden, record: false)
    XCTAssertEqual(
      outcome,
      .sizeMismatch(goldenPath: golden, actualPath: directory + "/area/case-a.actual.png", expected: (4, 2), actual: (4, 1)))
  }

  func testPackageRootIsFoundAboveThisFile() {
    let root = GoldenImage.packageRoot(from: #filePath)
    XCTAssertNotNil(root)
    XCTAssertTrue(FileManager.default.fileExists(atPath: root! + "/Tests/GoldenSupport"))
  }
}
