import CommandTestSupport
import Configuration
import Foundation
import PNGImage
import PatternCore
import Recording
import XCTest

/// `patternlock replay --state-dir DIR --dump OUT`: the pictures `run --state-dir DIR`
/// would show for a recording, judged by the Vault on the recording's clock.
///
/// The capture is made in the test by scripts/harness/make-capture.py: five distinct wrong
/// patterns (the fifth starts a 60 s lockout on Android's table), then three gestures
/// during the lockout, the right one among them. One dump of it is shared by the tests
/// that only look at its pictures (a debug build takes seconds to draw them).
final class ReplayPolicyDumpTests: XCTestCase {
  private let secret = "3-2-1-4-7"
  private let wrongPaths = ["1-2-3-6", "1-5-9-8", "7-8-9-6", "2-5-8-7", "4-5-6-9"]
  private let pathsDuringLockout = ["3-2-1-4-7", "1-2-3-6-9", "3-2-1-4-7"]
  private var work: URL!
  private var capture: String { work.appendingPathComponent("lockout.yaml").path }

  /// The shared dump: the replay's output and its frames' directory (in `root`).
  private struct SharedDump {
    var run: CommandResult
    var root: TemporaryDirectory
    var directory: URL
  }
  nonisolated(unsafe) private static var shared: SharedDump?
  nonisolated(unsafe) private static var sharedImages: [RGBAImage]?

  override func setUpWithError() throws {
    work = try makeTemporaryDirectory()
    var arguments = [PackageRoot.path("scripts/harness/make-capture.py"), "--device", "ft5406", "--seed", "11"]
    for path in wrongPaths + pathsDuringLockout { arguments += ["--path", path] }
    let made = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments + ["-o", capture])
    XCTAssertEqual(made.status, 0, made.stderr)
  }

  override class func tearDown() {
    shared?.root.remove()
    shared = nil
    sharedImages = nil
    super.tearDown()
  }

  /// `replay CAPTURE --state-dir <fresh> --dump DIR`, made once for the class.
  private func sharedDump() throws -> SharedDump {
    if let shared = Self.shared { return shared }
    let root = try TemporaryDirectory(prefix: "replay-policy")
    let directory = root.url.appendingPathComponent("frames")
    let run = try PatternlockBinary.run(["replay", capture, "--state-dir", freshVault("shared"), "--dump", directory.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    Self.shared = SharedDump(run: run, root: root, directory: directory)
    return Self.shared!
  }

  /// The shared dump's frames, decoded, in order.
  private func sharedFrames() throws -> [RGBAImage] {
    if let images = Self.sharedImages { return images }
    let directory = try sharedDump().directory
    let names = try frames(in: directory)
    XCTAssertEqual(names.last, String(format: "%05d.png", names.count - 1), "frames are numbered without gaps")
    Self.sharedImages = try names.map { try image(directory, $0) }
    return Self.sharedImages!
  }

  /// A fresh state directory holding the secret (cheap hash), so each replay starts
  /// from no failures.
  /// The capture draws a commonly chosen pattern, so it is set with the enrolment guard
  /// off, in this test's own system configuration.
  private func freshVault(_ name: String) throws -> String {
    let path = work.appendingPathComponent(name).path
    let root = try ConfigRoot()
    defer { root.remove() }
    try root.write("etc/patternlock.conf", "[vault]\nblocklist = off\n")
    let set = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", path, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: secret + "\n",
      environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(set.status, 0, set.stderr)
    return path
  }

  private func frames(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }.sorted()
  }

  private func image(_ directory: URL, _ name: String) throws -> RGBAImage {
    do { return try PNGFile.read(from: directory.appendingPathComponent(name).path) } catch {
      XCTFail("cannot read \(name): \(error.message)")
      throw CocoaError(.fileReadCorruptFile)
    }
  }

  // 800x480: the grid's dots at x = 416, 560, 704 and y = 96, 240, 384; the prompt is left of x = 344.
  private let dotCentres = [(416, 96), (560, 96), (704, 96), (416, 240), (560, 240), (704, 240), (416, 384), (560, 384), (704, 384)]
  private let promptRight = 344
  private let idleDot: [UInt8] = [225, 230, 238]
  private let wrongDot: [UInt8] = [255, 72, 72]

  private func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixel(x: x, y: y)
    return [p.red, p.green, p.blue]
  }

  private func gridIsIdle(_ image: RGBAImage) -> Bool { dotCentres.allSatisfy { rgb(image, $0.0, $0.1) == idleDot } }

  /// The columns of red prompt text (the wrong colour, anti-aliased), or nil for none.
  private func redPromptColumns(_ image: RGBAImage) -> ClosedRange<Int>? {
    var low: Int?, high: Int?
    for y in 180..<300 {
      for x in 0..<promptRight {
        let p = image.pixel(x: x, y: y)
        if p.red > 160 && Int(p.red) > 2 * Int(p.green) && Int(p.red) > 2 * Int(p.blue) {
          low = min(low ?? x, x)
          high = max(high ?? x, x)
        }
      }
    }
    guard let low, let high else { return nil }
    return low...high
  }

  /// When the tracker finishes each gesture and when the capture ends (800x480 layout).
  private func gestureEnds() throws -> (lifts: [UInt64], end: UInt64) {
    let layout = try GridLayout(LayoutOptions())
    let events = try Recording(contentsOf: capture).touchEvents(transform: layout.transform)
    var tracker = GestureTracker(layout: layout, minimumDots: 4)
    let lifts = events.compactMap { tracker.handle($0)?.timeMicroseconds }
    return (lifts, try XCTUnwrap(events.last).timeMicroseconds)
  }

  /// The gestures are 1-2-3-6, 1-5-9-8, 7-8-9-6, 2-5-8-7, 4-5-6-9, then 3-2-1-4-7 (right),
  /// 1-2-3-6-9, 3-2-1-4-7: results only, the dots of guesses at a real secret are never printed.
  private let expectedLines = """
    {"result":"wrong","failures":1}
    {"result":"wrong","failures":2}
    {"result":"wrong","failures":3}
    {"result":"wrong","failures":4}
    {"result":"wrong","retry_in_s":60,"failures":5}
    {"result":"locked-out","retry_in_s":59}
    {"result":"locked-out","retry_in_s":57}
    {"result":"locked-out","retry_in_s":55}

    """

  func testDumpAddsPicturesWithoutChangingTheLines() throws {
    let plain = try PatternlockBinary.run(["replay", capture, "--state-dir", freshVault("plain")])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssertEqual(plain.stdout, expectedLines, "the gestures under the lockout are refused (locked-out, not judged), the right one too")
    let dumped = try sharedDump()
    XCTAssertEqual(dumped.run.stdout, plain.stdout)
    XCTAssertEqual(dumped.run.stderr, "")
    XCTAssertGreaterThan(try frames(in: dumped.directory).count, 50)
  }

  func testDumpIsByteIdenticalBetweenRuns() throws {
    let a = try sharedDump().directory, b = work.appendingPathComponent("b")
    XCTAssertEqual(try PatternlockBinary.run(["replay", capture, "--state-dir", freshVault("vb"), "--dump", b.path]).status, 0)
    let names = try frames(in: a)
    XCTAssertEqual(names, try frames(in: b))
    for name in names {
      let x = try Data(contentsOf: a.appendingPathComponent(name)), y = try Data(contentsOf: b.appendingPathComponent(name))
      XCTAssertEqual(x, y, "\(name) differs between two replays of the same input")
    }
  }

  func testLockoutCountsDownOnePictureEachSecondOfRecordingTime() throws {
    let images = try sharedFrames()

    // The fifth verdict is the last picture with anything on the grid; it is red.
    let verdict = try XCTUnwrap(images.lastIndex { !gridIsIdle($0) })
    XCTAssertEqual(rgb(images[verdict], 416, 240), wrongDot, "4-5-6-9 shown wrong")
    let (lifts, end) = try gestureEnds()
    XCTAssertEqual(lifts.count, wrongPaths.count + pathsDuringLockout.count)
    // The verdict's half second ends with "Try again in 1:00", then one picture per
    // whole second while the recording lasts; the refused gestures add none.
    let countdown = Array(images[(verdict + 1)...])
    let seconds = Int((end - lifts[4]) / 1_000_000)
    XCTAssertGreaterThanOrEqual(seconds, 3, "the capture should run a few seconds into the lockout")
    XCTAssertEqual(countdown.count, 1 + seconds, "one picture at the verdict's end, then one per second")
    for (i, frame) in countdown.enumerated() {
      XCTAssertTrue(gridIsIdle(frame), "countdown picture \(i) shows no input")
      XCTAssertNotNil(redPromptColumns(frame), "countdown picture \(i) has no red prompt")
      guard i > 0 else { continue }
      let previous = countdown[i - 1]
      XCTAssertNotEqual(frame, previous, "the prompt changes each second (picture \(i))")
      var changedOutsidePrompt = false
      for y in 0..<frame.height where !changedOutsidePrompt {
        for x in promptRight..<frame.width where frame.pixel(x: x, y: y) != previous.pixel(x: x, y: y) {
          changedOutsidePrompt = true
          break
        }
      }
      XCTAssertFalse(changedOutsidePrompt, "only the prompt changes (picture \(i))")
    }
  }

  func testWrongVerdictsCountTheTriesLeft() throws {
    let images = try sharedFrames()
    // A verdict picture: red dots on the grid. Each is shown once, for the feedback time.
    let verdicts = images.filter { frame in dotCentres.contains { rgb(frame, $0.0, $0.1) == wrongDot } }
    XCTAssertEqual(verdicts.count, 5)
    let widths = verdicts.map { redPromptColumns($0).map(\.count) ?? 0 }
    // "Wrong pattern", then ": 3 tries left", ": 2 tries left", ": 1 try left", then
    // plain again when the lockout starts.
    XCTAssertGreaterThan(widths[0], 0)
    XCTAssertEqual(widths[4], widths[0])
    for i in 1...3 { XCTAssertGreaterThan(widths[i], widths[0] + 50, "verdict \(i + 1) names the tries left") }
    XCTAssertGreaterThan(widths[2], widths[3], "'1 try left' is shorter than '2 tries left'")
  }

  func testContactSheetFormatAndStealthWorkWithTheVault() throws {
    let sheet = work.appendingPathComponent("sheet.png")
    let run = try PatternlockBinary.run(["replay", capture, "--state-dir", freshVault("v"), "--contact-sheet", sheet.path, "--format", "rgb565", "--stealth"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, expectedLines)
    let image = try PNGFile.read(from: sheet.path)
    XCTAssertEqual(image.width, 6 * 266 + 7 * 2)
  }

  func testPatternIsStillRefusedWithTheVault() throws {
    let run = try PatternlockBinary.run(["replay", capture, "--state-dir", freshVault("v"), "--pattern", "1-2-3-6"])
    XCTAssertEqual(run.status, 2)
    XCTAssertEqual(run.stdout, "")
    XCTAssertTrue(run.stderr.hasPrefix("patternlock: replay: --pattern cannot be combined with --state-dir"), run.stderr)
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1)
  }
}
