import CommandTestSupport
import Foundation
import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// A recording's clock is the recording's: years between two gestures are jumped, not
/// stepped through a second at a time, and pictures of such a gap are refused before
/// any is written. The real state directory is never touched.
final class ReplayLongGapTests: XCTestCase {
  typealias S = VaultTestSupport
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  static let threeYears: Int64 = 3 * 365 * 86_400

  override func setUpWithError() throws {
    sandbox = try makeTemporaryDirectory(prefix: "replay-gap", permissions: 0o755)
    try S.enrol([1, 2, 3, 6], in: statePath)
    // 18 failures: AOSP's 3-year lockout, pending (no boot: it restarts at the first event).
    let directory = try StateDirectory(opening: statePath, creating: false)
    try AttemptsFile.save(AttemptRecord(failures: 18, lastFailureWallSeconds: 1, recentWrong: []), to: directory)
  }

  /// l-shape-1236 (the right pattern) twice: at once, and three years and 100 s later.
  func recordingWithAGap() throws -> String {
    let text = try String(contentsOfFile: Captures.path("l-shape-1236"), encoding: .utf8)
    guard let eventsLine = text.range(of: "  events:\n") else { throw XCTSkip("capture layout changed") }
    let header = String(text[..<eventsLine.upperBound])
    let events = String(text[eventsLine.upperBound...])
    let shifted = events.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard let open = line.range(of: "- ["), let comma = line[open.upperBound...].firstIndex(of: ",") else { return String(line) }
      let seconds = Int64(line[open.upperBound..<comma].trimmingCharacters(in: .whitespaces))!
      return String(line[..<open.upperBound]) + " \(seconds + Self.threeYears + 100)" + String(line[comma...])
    }.joined(separator: "\n")
    let path = sandbox.appendingPathComponent("gap.yaml").path
    try (header + events + shifted).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func testYearsBetweenGesturesAreJumpedAndTheStateIsNeverWritten() throws {
    let recording = try recordingWithAGap()
    let before = try Data(contentsOf: URL(fileURLWithPath: statePath + "/attempts"))
    let started = Date()
    let run = try PatternlockBinary.run(["replay", recording, "--state-dir", statePath])
    let seconds = Date().timeIntervalSince(started)
    XCTAssertEqual(run.status, 0, run.stderr)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, run.stdout)
    XCTAssertTrue(lines.first?.hasPrefix("{\"result\":\"locked-out\",\"retry_in_s\":9460") ?? false, run.stdout)
    XCTAssertEqual(lines.last, "{\"result\":\"unlocked\"}", "three years later the lockout is over, on the recording's clock")
    // Not a benchmark: stepping through three years a second at a time takes minutes.
    XCTAssertLessThan(seconds, 60, "the gap was stepped through, not jumped")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: statePath + "/attempts")), before, "the real lockout stands")
    XCTAssertEqual(try PatternlockBinary.run(["check", "--state-dir", statePath], stdin: "1-2-3-6").status, 5)
  }

  func testPicturesOfYearsOfCountdownAreRefusedBeforeAnyIsWritten() throws {
    let recording = try recordingWithAGap()
    let dump = sandbox.appendingPathComponent("frames").path
    let run = try PatternlockBinary.run(["replay", recording, "--state-dir", statePath, "--dump", dump])
    XCTAssertEqual(run.status, 2)
    XCTAssertEqual(run.stdout, "", "all lines or none")
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("more than 10000 pictures"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dump), "nothing was written")
  }
}
