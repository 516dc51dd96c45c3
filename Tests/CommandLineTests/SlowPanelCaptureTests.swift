import CommandTestSupport
import Foundation
import XCTest

/// Touch sampled as a slow, polled controller reports it (the Raspberry Pi 7-inch
/// panel's FT5406: 25 Hz through the firmware, about 50 Hz through edt-ft5x06): every
/// real recording in Tests/Captures/real written at 25 and 50 Hz (Tests/Captures/slow,
/// by scripts/harness/slow-panel.py) replays to the patterns its full-rate recording
/// gives, and a device that cannot draw is refused alike.
final class SlowPanelCaptureTests: XCTestCase {
  static let slowDirectory = PackageRoot.url("Tests/Captures/slow")
  static let rates = [25, 50]

  static func slowPath(_ name: String, hz: Int) -> String {
    slowDirectory.appendingPathComponent("\(name)-\(hz)hz.yml").path
  }

  func testEverySlowCaptureReplaysToTheFullRatePatterns() throws {
    for capture in RealCaptureTests.replayed {
      for hz in Self.rates {
        let context = (["\(capture.name) at \(hz) Hz"] + capture.arguments).joined(separator: " ")
        let run = try PatternlockBinary.run(["replay", Self.slowPath(capture.name, hz: hz)] + capture.arguments)
        XCTAssertEqual(run.status, 0, "\(context): \(run.stderr)")
        XCTAssertEqual(run.stdout, capture.lines.map { $0 + "\n" }.joined(), context)
      }
    }
  }

  /// The synthetic captures (the fast swipe's 16 ms samples 215 px apart among them),
  /// written at 25 and 50 Hz here, give their expected patterns too.
  func testSyntheticCapturesGiveTheirPatternsAtSlowRates() throws {
    let directory = try makeTemporaryDirectory()
    let script = PackageRoot.url("scripts/harness/slow-panel.py").path
    for name in try Captures.names() {
      let expected = try String(contentsOfFile: Captures.path(name, ".expected.jsonl"), encoding: .utf8)
      let arguments = (try? String(contentsOfFile: Captures.path(name, ".args"), encoding: .utf8))?
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) ?? []
      for hz in Self.rates {
        let slow = directory.appendingPathComponent("\(name)-\(hz)hz.yaml").path
        let written = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--hz", "\(hz)", Captures.path(name), slow])
        XCTAssertEqual(written.status, 0, written.stderr)
        let run = try PatternlockBinary.run(["replay", slow] + arguments)
        XCTAssertEqual(run.status, 0, "\(name) at \(hz) Hz: \(run.stderr)")
        XCTAssertEqual(Self.patterns(run.stdout), Self.patterns(expected), "\(name) at \(hz) Hz")
      }
    }
  }

  /// The pattern lines of a replay's output.
  static func patterns(_ output: String) -> [String] {
    output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"dots\"") }
  }

  func testSlowCapturesOfDevicesThatCannotDrawAreRefusedAlike() throws {
    for (name, fragments) in RealCaptureTests.refused {
      for hz in Self.rates {
        let run = try PatternlockBinary.run(["replay", Self.slowPath(name, hz: hz)])
        XCTAssertEqual(run.status, 2, "\(name) at \(hz) Hz")
        XCTAssertTrue(fragments.allSatisfy { run.stderr.contains($0.components(separatedBy: ";").first ?? $0) }, run.stderr)
      }
    }
  }

  /// Fewer reports, the same touches: every down and lift is kept, and in each period
  /// a slow capture has one report of motion, and one more beside each down or lift
  /// (the motion before it is reported first).
  func testASlowCaptureKeepsEveryTouchAndReportsAtItsRate() throws {
    for name in try Captures.realNames() {
      let full = try String(contentsOfFile: Captures.realPath(name), encoding: .utf8)
      for hz in Self.rates {
        let slow = try String(contentsOfFile: Self.slowPath(name, hz: hz), encoding: .utf8)
        XCTAssertEqual(Self.transitions(in: slow), Self.transitions(in: full), "\(name) at \(hz) Hz: downs and lifts")
        let reports = Self.reports(in: slow)
        XCTAssertLessThanOrEqual(reports.count, Self.reports(in: full).count, name)
        let start = reports.first?.time ?? 0
        var motion: [Int: Int] = [:], transitions: [Int: Int] = [:]
        for report in reports {
          let period = (report.time - start) / (1_000_000 / hz)
          if report.isTransition { transitions[period, default: 0] += 1 } else { motion[period, default: 0] += 1 }
        }
        for (period, count) in motion {
          XCTAssertLessThanOrEqual(count, 1 + transitions[period, default: 0], "\(name) at \(hz) Hz, period \(period)")
        }
      }
    }
  }

  func testTheGeneratorWritesTheCommittedCaptures() throws {
    let directory = try makeTemporaryDirectory()
    let script = PackageRoot.url("Tests/Captures/slow/generate.sh").path
    let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script, directory.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    for name in try Captures.realNames() {
      for hz in Self.rates {
        let written = try String(contentsOfFile: directory.appendingPathComponent("\(name)-\(hz)hz.yml").path, encoding: .utf8)
        XCTAssertEqual(written, try String(contentsOfFile: Self.slowPath(name, hz: hz), encoding: .utf8), "\(name) at \(hz) Hz drifted from its generator")
      }
    }
  }

  /// Each touch's or button's going down or up: (type, code, value) of BTN_* and
  /// ABS_MT_TRACKING_ID events, in order.
  static func transitions(in text: String) -> [String] {
    rows(in: text).filter { ($0[2] == 1) || ($0[2] == 3 && $0[3] == 57) }.map { "\($0[2]) \($0[3]) \($0[4] < 0 ? -1 : min($0[4], 1))" }
  }

  /// Each report's time (its SYN_REPORT's, in microseconds) and whether a touch or a
  /// button went down or up in it.
  static func reports(in text: String) -> [(time: Int, isTransition: Bool)] {
    var list: [(time: Int, isTransition: Bool)] = []
    var transition = false
    for row in rows(in: text) {
      if row[2] == 1 || (row[2] == 3 && row[3] == 57) { transition = true }
      if row[2] == 0 && row[3] == 0 {
        list.append((row[0] * 1_000_000 + row[1], transition))
        transition = false
      }
    }
    return list
  }

  static func rows(in text: String) -> [[Int]] {
    text.split(separator: "\n").compactMap { line -> [Int]? in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("- ["), let end = trimmed.firstIndex(of: "]") else { return nil }
      let fields = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 3)..<end].split(separator: ",")
        .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      return fields.count == 5 ? fields : nil
    }
  }
}
