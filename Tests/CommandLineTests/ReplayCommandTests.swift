import CommandTestSupport
import Foundation
import XCTest

/// Runs the built `patternlock replay` on every shipped capture and on bad files.
final class ReplayCommandTests: XCTestCase {
  func replay(_ arguments: [String]) throws -> CommandResult { try Self.replay(arguments) }

  /// Runs `patternlock replay` with the arguments and collects what it printed.
  static func replay(_ arguments: [String]) throws -> CommandResult {
    try PatternlockBinary.run(["replay"] + arguments)
  }

  func testEveryCaptureReplaysToItsExpectedLines() throws {
    let names = try Captures.names()
    XCTAssertGreaterThanOrEqual(names.count, 9)
    for name in names {
      let expected = try String(contentsOfFile: Captures.path(name, ".expected.jsonl"), encoding: .utf8)
      let run = try replay([Captures.path(name)] + Captures.arguments(name))
      XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
      XCTAssertEqual(run.stdout, expected, name)
      XCTAssertEqual(run.stderr, "", name)
    }
  }

  func testEverySyntheticCaptureIsWhatItsGeneratorWrites() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("captures-\(getpid())")
    defer { try? FileManager.default.removeItem(at: output) }
    let generate = Captures.directory.appendingPathComponent("generate.sh")
    let run = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/bash"), [generate.path, output.path],
      environment: ["PATTERNLOCK_BINARY": try PatternlockBinary.url().path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let written = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".yaml") }
    XCTAssertGreaterThanOrEqual(written.count, 13)
    for name in written {
      let committed = try Data(contentsOf: Captures.directory.appendingPathComponent(name))
      let generated = try Data(contentsOf: output.appendingPathComponent(name))
      XCTAssertTrue(committed == generated, "\(name) differs from what Tests/Captures/generate.sh writes: run it")
    }
  }

  func testRotationChangesWhichDotsAFingerHits() throws {
    // The rotated capture was drawn on a view turned 90 degrees; without --rotate the
    // same panel points land elsewhere.
    let rotated = try replay([Captures.path("rotated-90-1478"), "--rotate", "90"])
    let upright = try replay([Captures.path("rotated-90-1478")])
    XCTAssertEqual(rotated.stdout, "{\"dots\":[1,4,7,8],\"result\":\"complete\"}\n")
    XCTAssertNotEqual(upright.stdout, rotated.stdout)
  }

  func testBadFilesGiveOneLineOnStderrAndExitTwo() throws {
    let dir = try makeTemporaryDirectory()
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
      let url = dir.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
    let good = Array(try String(contentsOfFile: Captures.path("l-shape-1236"), encoding: .utf8).utf8)
    // Inside a row (before its type) past the middle: neither YAML nor a frame is complete.
    let midRow = try XCTUnwrap(
      (good.count / 2..<good.count - 8).first { good[$0..<$0 + 7].elementsEqual("3,  54,".utf8) })
    let huge = dir.appendingPathComponent("huge.yaml")
    FileManager.default.createFile(atPath: huge.path, contents: nil)
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: 100 * 1024 * 1024)
    try handle.close()

    let cases: [(String, String)] = [
      (dir.appendingPathComponent("missing.yaml").path, "cannot open recording"),
      (dir.path, "is a directory"),
      (huge.path, "64 MiB"),
      (try write("garbage.bin", [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe]), "not a YAML file"),
      (try write("list.yaml", Array("- a\n- b\n".utf8)), "not a libinput recording"),
      (try write("cut.yaml", Array(good[..<midRow])), "cut short"),
      (try write("empty.yaml", []), "the file is empty"),
    ]
    for (path, fragment) in cases {
      let run = try replay([path])
      XCTAssertEqual(run.status, 2, path)
      XCTAssertEqual(run.stdout, "", path)
      XCTAssertTrue(run.stderr.hasPrefix("patternlock: "), run.stderr)
      XCTAssertTrue(run.stderr.contains(fragment), "\(run.stderr) lacks '\(fragment)'")
      XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
      XCTAssertTrue(run.stderr.hasSuffix("\n"))
    }
  }

  func testMissingFileArgumentAndUnknownOptionAreUsageErrors() throws {
    let none = try replay([])
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.hasPrefix("patternlock: replay: no recording file given"), none.stderr)
    let unknown = try replay([Captures.path("l-shape-1236"), "--speed", "3"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.stderr.contains("unknown option '--speed'"), unknown.stderr)
    let badLayout = try replay([Captures.path("l-shape-1236"), "--grid", "9"])
    XCTAssertEqual(badLayout.status, 2)
    XCTAssertEqual(badLayout.stderr.filter { $0 == "\n" }.count, 1)
  }
}

/// `replay` with an unattended timeout: the action is reported and pictured, never run.
final class ReplayTimeoutTests: XCTestCase {
  func testATimeoutIsReportedWithItsLastPictureAndNothingIsRun() throws {
    let dir = try makeTemporaryDirectory()
    let marker = dir.appendingPathComponent("ran").path
    let fake = dir.appendingPathComponent("systemctl").path
    try "#!/bin/sh\necho \"$@\" >> \(marker)\n".write(toFile: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
    let frames = dir.appendingPathComponent("frames").path
    let run = try PatternlockBinary.run(
      ["replay", Captures.path("l-shape-1236"), "--timeout-s", "5", "--timeout-action", "poweroff", "--dump", frames],
      environment: ["PATTERNLOCK_SYSTEMCTL": fake])
    XCTAssertEqual(run.status, 0, run.stderr)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.last, "{\"event\":\"timeout\",\"action\":\"poweroff\"}")
    XCTAssertEqual(lines.filter { $0.contains("timeout") }.count, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "replay never runs the action")
    let pictures = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }
    XCTAssertGreaterThan(pictures.count, 2)

    let blank = try PatternlockBinary.run(["replay", Captures.path("l-shape-1236"), "--timeout-s", "5", "--timeout-action", "blank"])
    XCTAssertTrue(blank.stdout.hasSuffix("{\"event\":\"timeout\",\"action\":\"blank\"}\n"), blank.stdout)
    let none = try PatternlockBinary.run(["replay", Captures.path("l-shape-1236"), "--timeout-s", "5", "--timeout-action", "none"])
    XCTAssertFalse(none.stdout.contains("timeout"))
  }

  func testReplayTakesTheMessageAndThePowerButton() throws {
    let run = try PatternlockBinary.run(
      ["replay", Captures.path("l-shape-1236"), "--message", "Property of ACME", "--power-button", "--timeout-s", "60"])
    XCTAssertEqual(run.status, 0, run.stderr)
  }
}
