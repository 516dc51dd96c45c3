import CommandTestSupport
import Configuration
import Foundation
import PatternChoice
import PatternCore
import XCTest

/// The enrolment guard as a user meets it: `set-pattern` and `credential add` refuse a
/// commonly chosen pattern (exit 2, one line, never the pattern), print the strength
/// of the ones they take, the system-only `[vault] blocklist` turns the guard off or
/// widens it, and `status` flags an old common pattern after its first unlock.
final class PatternGuardCommandTests: XCTestCase {
  /// Far from the head of the attacker's order (past the 10,000th).
  static let strong = "6-3-8-1"
  static let otherStrong = "8-4-2-9"
  static let cheap = ["--argon-passes", "1", "--argon-memory-mib", "1"]

  /// How many patterns the standard list refuses (docs/pattern-choice-model.tsv).
  static let standardCount = "1,112"

  /// A pattern the standard list lets through and a list of the order's first 2,500
  /// patterns (with their images) refuses, and that list's size as the refusal says it.
  static let widened: (between: String, count: String) = {
    let model = ChoiceModel(gridSize: 3)
    let standard = PatternBlocklist(model: model)
    let wide = PatternBlocklist(model: model, headSize: 2_500)
    let between = model.head(2_500).first { !standard.refuses($0) }!
    let digits = Array("\(wide.count)")
    var grouped = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { grouped += "," }
      grouped.append(c)
    }
    return (between.dashed, grouped)
  }()

  static func refusal(_ command: String, size: String = standardCount) -> String {
    "patternlock: \(command): this pattern is among the \(size) most commonly chosen (an attacker tries those first); choose one with more dots, fewer straight runs, that starts away from the top-left corner, then try again\n"
  }

  private var root: ConfigRoot!
  private var state = ""

  override func setUpWithError() throws {
    root = try ConfigRoot()
    state = try makeTemporaryDirectory(prefix: "guard-cli").appendingPathComponent("state").path
  }

  override func tearDown() { root.remove() }

  /// Runs the binary with this test's own configuration root (never the machine's /etc).
  private func run(_ arguments: [String], stdin: String = "") throws -> CommandResult {
    try PatternlockBinary.run(arguments, stdin: stdin, environment: [ConfigurationFiles.rootVariable: root.path])
  }

  private func setPattern(_ pattern: String, _ extra: [String] = []) throws -> CommandResult {
    try run(["set-pattern", "--state-dir", state] + Self.cheap + extra, stdin: pattern + "\n")
  }

  private func status() throws -> [String: Any] {
    let result = try run(["status", "--state-dir", state])
    XCTAssertEqual(result.status, 0, result.stderr)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  private func auditLines() throws -> [String] {
    try String(contentsOfFile: state + "/audit.log", encoding: .utf8).split(separator: "\n").map(String.init)
  }

  /// A sample of the standard list (its head, named shapes in several orientations,
  /// entries spread over the rest): each refused with the same line, nothing stored.
  func testSetPatternRefusesPatternsOfTheStandardList() throws {
    let list = PatternBlocklist(model: ChoiceModel(gridSize: 3))
    let images = NamedShapes.allImages(gridSize: 3)
    var sample = ChoiceModel(gridSize: 3).head(6) + [images[0], images[9], images[20], images[images.count - 1]]
    for i in stride(from: 37, to: list.count, by: list.count / 10) { sample.append(list.patterns[i]) }
    XCTAssertGreaterThanOrEqual(sample.count, 20)
    for dots in sample {
      XCTAssertTrue(list.refuses(dots), dots.dashed)
      let result = try setPattern(dots.dashed)
      XCTAssertEqual(result.status, 2, dots.dashed)
      XCTAssertEqual(result.stderr, Self.refusal("set-pattern"), dots.dashed)
      XCTAssertEqual(result.stdout, "")
      XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/pattern"), dots.dashed)
    }
  }

  func testSetPatternSaysTheStrengthAndLogsItsBucket() throws {
    let result = try setPattern(Self.strong)
    XCTAssertEqual(result.status, 0, result.stderr)
    let estimate = GuessEstimate(DotSequence([6, 3, 8, 1]), model: ChoiceModel(gridSize: 3))
    XCTAssertEqual(estimate.bucket, "100000")
    XCTAssertTrue(
      result.stdout.hasSuffix("\nstrength: found within about 100,000 guesses in an attacker's order; the lock allows 20\n"), result.stdout)
    let line = try XCTUnwrap(try auditLines().last)
    XCTAssertTrue(line.contains("\"event\":\"pattern-set\""), line)
    XCTAssertTrue(line.hasSuffix("\"reason\":\"set-pattern\",\"guesses\":\"100000\"}"), line)
    XCTAssertFalse(line.contains(Self.strong))
  }

  func testTheStrengthCountsTheTriesTheThrottleAllows() throws {
    try root.write("etc/patternlock.conf", "[vault]\npermanent-after = 8\n")
    let result = try setPattern(Self.strong)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasSuffix("; the lock allows 8\n"), result.stdout)
  }

  func testCredentialAddRefusesCommonPatternsAndSaysTheStrengthOfOthers() throws {
    XCTAssertEqual(try setPattern(Self.strong).status, 0)
    for pattern in ["1-2-3-6", "9-6-3-2", "7-4-1-2-3", "3-5-7-8-9"] {
      let result = try run(["credential", "add", "guest", "--state-dir", state], stdin: pattern + "\n")
      XCTAssertEqual(result.status, 2, pattern)
      XCTAssertEqual(result.stderr, Self.refusal("credential add"), pattern)
    }
    let added = try run(["credential", "add", "guest", "--state-dir", state], stdin: Self.otherStrong + "\n")
    XCTAssertEqual(added.status, 0, added.stderr)
    XCTAssertTrue(
      added.stdout.hasSuffix("\nstrength: found within about 100,000 guesses in an attacker's order; the lock allows 20\n"), added.stdout)
    let line = try XCTUnwrap(try auditLines().last)
    XCTAssertTrue(line.hasSuffix("\"credential\":\"guest\",\"failures\":0,\"reason\":\"user\",\"guesses\":\"100000\"}"), line)
  }

  func testTheSystemKeyTurnsTheGuardOffOrWidensIt() throws {
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = off\n")
    let off = try setPattern("1-2-3-6")
    XCTAssertEqual(off.status, 0, off.stderr)
    XCTAssertTrue(off.stdout.hasSuffix("\nstrength: found within about 20 guesses in an attacker's order; the lock allows 20\n"), off.stdout)
    // Past the standard list, within the order's first 2,500.
    let between = Self.widened.between
    try root.write("etc/patternlock.conf", "")
    XCTAssertEqual(try setPattern(between).status, 0)
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = 2500\n")
    let widened = try setPattern(between)
    XCTAssertEqual(widened.status, 2)
    XCTAssertEqual(widened.stderr, Self.refusal("set-pattern", size: Self.widened.count))
  }

  func testAListNarrowerThanTheStandardOneIsAConfigurationError() throws {
    let file = try root.write("etc/patternlock.conf", "[vault]\nblocklist = 200\n")
    let result = try setPattern(Self.strong)
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stderr,
      "patternlock: \(file):2: blocklist cannot be '200': it takes off, or how many patterns of the head of an attacker's order enrolments refuse (each with its turned, mirrored and reversed images), from 300 (the standard list: it can be widened, never narrowed) to 20000\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/pattern"))
  }

  func testAnOwnersFileCannotTurnTheGuardOff() throws {
    let own = try makeTemporaryDirectory(prefix: "guard-own").appendingPathComponent("mine.conf")
    try Data("[vault]\nblocklist = off\n".utf8).write(to: own)
    let result = try setPattern("1-2-3-6", ["--config", own.path])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.hasPrefix("patternlock: \(own.path):2: 'blocklist' is set only in the root-owned system configuration"), result.stderr)
    XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/pattern"))
  }

  func testStatusFlagsACommonPatternAfterItsFirstUnlockUntilANewOneIsSet() throws {
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = off\n")
    XCTAssertEqual(try setPattern("1-2-3-6").status, 0)
    try root.write("etc/patternlock.conf", "")
    XCTAssertEqual(try status()["pattern_check"] as? String, "unchecked")
    XCTAssertNil(try status()["advice"])
    let unlocked = try run(["check", "--state-dir", state], stdin: "1-2-3-6\n")
    XCTAssertEqual(unlocked.status, 0, "an existing pattern keeps unlocking: \(unlocked.stderr)")
    var now = try status()
    XCTAssertEqual(now["pattern_check"] as? String, "common")
    XCTAssertEqual(now["advice"] as? String, "the pattern is among the most commonly chosen: set a stronger one with enroll or set-pattern")
    XCTAssertEqual(try run(["check", "--state-dir", state], stdin: "1-2-3-6\n").status, 0)
    XCTAssertEqual(try status()["pattern_check"] as? String, "common")
    // A new enrolment clears it.
    XCTAssertEqual(try setPattern(Self.strong).status, 0)
    now = try status()
    XCTAssertEqual(now["pattern_check"] as? String, "unchecked")
    XCTAssertNil(now["advice"])
    XCTAssertEqual(try run(["check", "--state-dir", state], stdin: Self.strong + "\n").status, 0)
    XCTAssertEqual(try status()["pattern_check"] as? String, "not-common")
  }
}
