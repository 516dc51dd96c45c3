import CommandTestSupport
import Configuration
import Foundation
import XCTest

/// `patternlock replay --input tap`: a recording of separate taps replays into one
/// pattern, judged exactly as a drawn one (by `--pattern`, or by the Vault, which
/// counts the attempt before it verifies).
///
/// The capture is made here by scripts/harness/make-capture.py, one gesture per tap: 1, 3
/// (which fills in 2), 6, then 6 again to confirm; a last tap on 9 is left for the
/// pause after the recording's end to confirm.
final class TapReplayTests: XCTestCase {
  private var work: URL!
  private var capture: String { work.appendingPathComponent("taps.yaml").path }

  override func setUpWithError() throws {
    work = try makeTemporaryDirectory()
    var arguments = [PackageRoot.path("scripts/harness/make-capture.py"), "--device", "ft5406", "--seed", "21"]
    for dot in ["1", "3", "6", "6", "9"] { arguments += ["--path", dot] }
    let made = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments + ["-o", capture])
    XCTAssertEqual(made.status, 0, made.stderr)
  }

  func testTapsReplayIntoAPatternConfirmedByATapAndByThePause() throws {
    let run = try PatternlockBinary.run(["replay", capture, "--input", "tap"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, """
      {"dots":[1,2,3,6],"result":"complete"}
      {"dots":[9],"result":"too-short"}

      """)
    XCTAssertEqual(run.stderr, "")
  }

  func testTheSameTouchesDraggedAreOneDotPatterns() throws {
    let run = try PatternlockBinary.run(["replay", capture, "--input", "drag"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout.split(separator: "\n").count, 5)
    XCTAssertTrue(run.stdout.hasPrefix("{\"dots\":[1],\"result\":\"too-short\"}\n"), run.stdout)
  }

  func testTappedPatternsAreJudgedAsDrawnOnes() throws {
    let matched = try PatternlockBinary.run(["replay", capture, "--input", "tap", "--pattern", "1-2-3-6"])
    XCTAssertEqual(matched.status, 0, matched.stderr)
    XCTAssertTrue(matched.stdout.hasPrefix("{\"dots\":[1,2,3,6],\"result\":\"complete\",\"match\":true}\n"), matched.stdout)

    // The capture draws a commonly chosen pattern: set with the enrolment guard off, in
    // this test's own system configuration.
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = off\n")
    for (secret, expected) in [("1-2-3-6", "{\"result\":\"unlocked\"}\n"), ("3-2-1-4-7", "{\"result\":\"wrong\",\"failures\":1}\n")] {
      let vault = work.appendingPathComponent("vault-" + secret).path
      let set = try PatternlockBinary.run(
        ["set-pattern", "--state-dir", vault, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: secret + "\n",
        environment: [ConfigurationFiles.rootVariable: root.path])
      XCTAssertEqual(set.status, 0, set.stderr)
      let judged = try PatternlockBinary.run(["replay", capture, "--input", "tap", "--state-dir", vault])
      XCTAssertEqual(judged.status, 0, judged.stderr)
      XCTAssertTrue(judged.stdout.hasPrefix(expected), "\(secret): \(judged.stdout)")
    }
  }
}
