import CommandTestSupport
import Foundation
import PatternCore
import XCTest

/// `patternlock replay --grid-motion … --grid-seed N`: the placements come from the
/// seed, so a replay (its lines and its pictures) is the same on every run; a turned
/// grid reads the recorded path in the grid's own frame.
final class ReplayGridMotionTests: XCTestCase {
  private let runner = ReplayCommandTests.self

  func testASeedMakesEveryRunAlike() throws {
    for motion in ["shift", "turn"] {
      let a = try makeTemporaryDirectory(), b = try makeTemporaryDirectory()
      let args = [Captures.path("two-gestures"), "--grid-motion", motion, "--grid-seed", "5"]
      let first = try runner.replay(args + ["--dump", a.path])
      let second = try runner.replay(args + ["--dump", b.path])
      XCTAssertEqual(first.status, 0, first.stderr)
      XCTAssertEqual(first.stdout, second.stdout, motion)
      let names = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
      XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: b.path).sorted(), motion)
      XCTAssertGreaterThan(names.count, 10, motion)
      for name in names {
        XCTAssertEqual(
          try Data(contentsOf: a.appendingPathComponent(name)), try Data(contentsOf: b.appendingPathComponent(name)),
          "\(motion) \(name)")
      }
    }
  }

  /// The capture drew 1-5-9 and then 3-2-1-4-7 on the upright grid; on a grid turned
  /// as seed 5 turns it, the same places are the turned grid's own dots.
  func testATurnedGridReadsThePathInItsOwnFrame() throws {
    let source = SeededGridRandomness(seed: 5)
    let first = GridPlacement(choosing: .turn, randomBits: source.nextBits())
    let second = GridPlacement(choosing: .turn, randomBits: source.nextBits())
    func own(_ dots: [Int], _ p: GridPlacement) -> String {
      dots.map { String(p.dot(atSlot: $0, gridSize: 3)) }.joined(separator: ",")
    }
    let run = try runner.replay([Captures.path("two-gestures"), "--grid-motion", "turn", "--grid-seed", "5"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(
      run.stdout,
      "{\"dots\":[\(own([1, 5, 9], first))],\"result\":\"too-short\"}\n{\"dots\":[\(own([3, 2, 1, 4, 7], second))],\"result\":\"complete\"}\n")
  }

  func testOffAndTheSeedChangeNothing() throws {
    let plain = try runner.replay([Captures.path("z-1235789")])
    let seeded = try runner.replay([Captures.path("z-1235789"), "--grid-motion", "off", "--grid-seed", "77"])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssertEqual(seeded.stdout, plain.stdout)
  }

  func testABadMotionIsOneClearLine() throws {
    let run = try runner.replay([Captures.path("z-1235789"), "--grid-motion", "spin"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("grid-motion"), run.stderr)
    XCTAssertTrue(run.stderr.contains("off, shift or turn"), run.stderr)
    XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
  }
}
