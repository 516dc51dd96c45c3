import CommandTestSupport
import Foundation
import PatternCore
import Recording
import SystemCalls
import XCTest

/// Reading `libinput record` YAML: the shipped captures, the format's variants, and
/// every kind of bad file, each giving one `RecordingError` with the file and line.
final class RecordingParserTests: XCTestCase {
  static func capture(_ name: String) throws -> String {
    try String(contentsOfFile: Captures.path(name), encoding: .utf8)
  }

  /// Parses text through a real file, as the command does.
  func parseFile(_ text: String, name: String = "capture.yaml") throws -> Recording {
    let url = try makeTemporaryDirectory().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return try Recording(contentsOf: url.path)
  }

  /// The error `body` throws, or a failure naming the test line.
  func recordingError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> RecordingError? {
    do {
      try body()
      XCTFail("no error thrown", file: file, line: line)
    } catch let error as RecordingError {
      XCTAssertFalse(error.message.contains("\n"), "message has more than one line", file: file, line: line)
      return error
    } catch {
      XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return nil
  }

  // MARK: Shipped captures

  func testEveryShippedCaptureParsesIntoCompleteFrames() throws {
    let names = try Captures.names()
    XCTAssertGreaterThanOrEqual(names.count, 9)
    for name in names {
      let recording = try Recording(contentsOf: Captures.path(name))
      XCTAssertNotNil(recording.device.touchProtocol, name)
      XCTAssertGreaterThan(recording.rows.count, 10, name)
      XCTAssertTrue(recording.rows.last?.isReport == true, name)
      XCTAssertEqual(recording.rows.first?.timeMicroseconds, 0, "libinput record starts the clock at 0: \(name)")
      let times = recording.rows.map(\.timeMicroseconds)
      XCTAssertEqual(times, times.sorted(), "rows out of time order in \(name)")
    }
  }

  func testShippedCapturesUseTheExpectedDevices() throws {
    let expected: [(String, String, TouchProtocol)] = [
      ("l-shape-1236", "raspberrypi-ts", .multitouch),
      ("single-touch-14789", "ADS7846 Touchscreen", .singleTouch),
      ("tablet-pointer-3-5-7-8", "QEMU Virtio Tablet", .pointer),
    ]
    for (name, device, touchProtocol) in expected {
      let recording = try Recording(contentsOf: Captures.path(name))
      XCTAssertEqual(recording.device.name, device, name)
      XCTAssertEqual(recording.device.node.hasPrefix("/dev/input/event"), true, name)
      XCTAssertEqual(recording.device.touchProtocol, touchProtocol, name)
    }
  }

  func testRowsKeepTheirFileLines() throws {
    let text = try Self.capture("l-shape-1236")
    let recording = try Recording(parsing: Array(text.utf8), path: "l.yaml")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try XCTUnwrap(recording.rows.first)
    XCTAssertTrue(lines[first.line - 1].contains("[  0,      0,   3,  57,"), String(lines[first.line - 1]))
  }

  func testFastSwipeHasNoSampleInsideTheDotsItCrosses() throws {
    // The capture must test the segment test: dots 2 and 6 lie between samples.
    let recording = try Recording(contentsOf: Captures.path("fast-swipe-1-3-9"))
    let layout = try GridLayout(LayoutOptions())
    let events = try recording.touchEvents(transform: layout.transform)
    let samples = events.filter { $0.kind == .down || $0.kind == .motion }
    XCTAssertLessThanOrEqual(samples.count, 6)
    let r = Int64(layout.hitRadius.raw)
    for dot in [2, 6] {
      for sample in samples {
        XCTAssertGreaterThan(sample.position.squaredDistance(to: layout.centre(of: dot)), r * r, "sample in dot \(dot)")
      }
    }
  }

  // MARK: Format variants

  static let flowStyle = """
    # libinput record
    version: 1
    ndevices: 2
    libinput: {version: "1.25.0", git: "unknown"}
    system: {kernel: "6.6.31+rpt-rpi-v8", dmi: "unknown"}
    devices:
    - node: /dev/input/event0
      evdev: {name: "gpio-keys", id: [25, 1, 1, 256], codes: {0: [0, 1], 1: [116]}, properties: []}
      events:
      - evdev:
        - [  0,      0,   1, 116,       1]
        - [  0,      0,   0,   0,       0]
    - node: /dev/input/event5
      evdev:
        name: 'ILITEK ILITEK-TP'
        id: [3, 8746, 1, 272]
        codes: {1: [330], 3: [0, 1, 47, 53, 54, 57]}
        absinfo: {0: [0, 16383, 0, 0, 0], 1: [0, 9599, 0, 0, 0], 47: [0, 9, 0, 0, 0], 53: [0, 16383, 0, 0, 0], 54: [0, 9599, 0, 0, 0], 57: [0, 65535, 0, 0, 0]}
        properties: [1]
      hid: [0x05, 0x0d, 0x09, 0x04]
      udev:
        properties:
        - ID_INPUT=1
      quirks:
      events:
      # Current time is 09:15:00
      - evdev:
        - [  0,      0,   3,  57,      40] # EV_ABS / ABS_MT_TRACKING_ID     40
        - [  0,      0,   3,  53,    8192] # EV_ABS / ABS_MT_POSITION_X   8192
        - [  0,      0,   3,  54,    4800] # EV_ABS / ABS_MT_POSITION_Y   4800
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
      - libinput:
        - {time: 0.000000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [ 50.00, 50.00], transformed: [ 50.00, 50.00]}
        - {time: 0.000000, type: TOUCH_FRAME}
      - evdev: [[0, 9000, 3, 57, -1], [0, 9000, 0, 0, 0]]
                                         # Touch device in neutral state
    """

  func testFlowStyleCommentsLibinputEventsAndASecondDeviceAreRead() throws {
    let recording = try Recording(parsing: Array(Self.flowStyle.utf8), path: "flow.yaml")
    XCTAssertEqual(recording.device.name, "ILITEK ILITEK-TP", "the keys device has no axes and is skipped")
    XCTAssertEqual(recording.device.node, "/dev/input/event5")
    XCTAssertEqual(recording.rows.count, 6)
    XCTAssertEqual(recording.rows.last, EvdevRow(seconds: 0, microseconds: 9000, type: 0, code: 0, value: 0, line: 35))
    let events = try recording.touchEvents(transform: ViewTransform(rotation: .none, panelWidth: 800, panelHeight: 480))
    XCTAssertEqual(events.map(\.kind), [.down, .frame, .up, .frame])
    XCTAssertEqual(events.first?.position, Point(x: 400, y: 240))
    XCTAssertEqual(events[2].timeMicroseconds, 9000)
  }

  // MARK: Bad files

  func testMissingFileNamesThePathAndTheReason() throws {
    let path = try makeTemporaryDirectory().appendingPathComponent("nothing.yaml").path
    let error = recordingError { _ = try Recording(contentsOf: path) }
    XCTAssertEqual(error, .cannotOpen(path: path, errno: .noEntry))
    XCTAssertEqual(error?.message.contains("No such file or directory"), true)
  }

  func testDirectoryIsRefused() throws {
    let path = try makeTemporaryDirectory().path
    XCTAssertEqual(recordingError { _ = try Recording(contentsOf: path) }, .notARegularFile(path: path, kind: "a directory"))
  }

  func testHugeSparseFileIsRefusedBeforeReading() throws {
    let url = try makeTemporaryDirectory().appendingPathComponent("huge.yaml")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 100 * 1024 * 1024)
    try handle.close()
    let start = Date()
    let error = recordingError { _ = try Recording(contentsOf: url.path) }
    XCTAssertEqual(error, .tooLarge(path: url.path, bytes: 100 * 1024 * 1024))
    XCTAssertEqual(error?.message.contains("64 MiB"), true)
    XCTAssertLessThan(Date().timeIntervalSince(start), 1, "the size is checked before reading")
  }

  func testBinaryGarbageIsNotYAML() throws {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[0] = 0x01  // a control character, whatever the random bytes are
    let error = recordingError { _ = try Recording(parsing: bytes, path: "garbage.bin") }
    guard case .notYAML("garbage.bin", let line, _)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    XCTAssertEqual(line, 1)
  }

  func testYAMLListIsNotARecording() throws {
    let error = recordingError { _ = try self.parseFile("- 1\n- 2\n") }
    guard case .notARecording(_, 1, let problem)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    XCTAssertTrue(problem.contains("a list"), problem)
  }

  func testEmptyFileAndPlainTextAreNotRecordings() throws {
    XCTAssertEqual(recordingError { _ = try Recording(parsing: [], path: "e") }, .notARecording(path: "e", line: 1, problem: "the file is empty"))
    let error = recordingError { _ = try Recording(parsing: Array("just some notes\n".utf8), path: "t") }
    guard case .notARecording("t", 1, _)? = error else { return XCTFail("unexpected \(String(describing: error))") }
  }

  func testOtherVersionIsRefusedWithItsLine() throws {
    let text = try Self.capture("l-shape-1236").replacingOccurrences(of: "version: 1\n", with: "version: 2\n")
    XCTAssertEqual(recordingError { _ = try self.parseFile(text, name: "v2.yaml") }.map(\.message)?.contains("v2.yaml:2: recording format version 2"), true)
  }

  func testFileCutInsideARowIsTruncated() throws {
    let text = try Self.capture("z-1235789")
    let bytes = Array(text.utf8)
    // Cut inside a row in the middle of the events.
    let rowStart = try XCTUnwrap(text.range(of: "3,  53,", range: text.index(text.startIndex, offsetBy: bytes.count / 2)..<text.endIndex))
    let cut = text.utf8.distance(from: text.startIndex, to: rowStart.lowerBound)
    let error = recordingError { _ = try Recording(parsing: Array(bytes[..<cut]), path: "cut.yaml") }
    guard case .truncated("cut.yaml", let line, _)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    let expectedLine = text.utf8.prefix(cut).filter { $0 == UInt8(ascii: "\n") }.count + 1
    XCTAssertEqual(line, expectedLine)
  }

  func testFileCutAtALineInsideAFrameIsTruncated() throws {
    let lines = try Self.capture("l-shape-1236").split(separator: "\n", omittingEmptySubsequences: false)
    let reportLines = lines.indices.filter { lines[$0].contains("SYN_REPORT") }
    let cut = reportLines[reportLines.count / 2]  // drop that frame's SYN_REPORT and everything after
    let text = lines[..<cut].joined(separator: "\n") + "\n"
    let error = recordingError { _ = try Recording(parsing: Array(text.utf8), path: "cut.yaml") }
    guard case .truncated(_, _, let problem)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    XCTAssertTrue(problem.contains("SYN_REPORT"), problem)
  }

  func testCutAtEveryHundredthByteNeverCrashesOrHangs() throws {
    let bytes = Array(try Self.capture("two-fingers").utf8)
    var outcomes = 0
    for cut in stride(from: 0, to: bytes.count, by: 97) {
      do {
        let recording = try Recording(parsing: Array(bytes[..<cut]), path: "cut")
        // A cut exactly after a frame is a valid, shorter recording.
        XCTAssertTrue(recording.rows.last?.isReport == true)
      } catch {
        outcomes += 1
      }
    }
    XCTAssertGreaterThan(outcomes, 0)
  }

  func testMissingAbsinfoForAnAxisInUseIsAnError() throws {
    let text = try Self.capture("l-shape-1236").replacingOccurrences(of: "      53: [0, 799, 0, 0, 0]\n", with: "")
    let recording = try parseFile(text)
    let error = recordingError { _ = try recording.touchEvents(transform: ViewTransform(rotation: .none, panelWidth: 800, panelHeight: 480)) }
    guard case .missingAbsinfo(_, let line, 53)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    XCTAssertEqual(line, 12, "the line of the device entry")
  }

  func testPositionOutsideAbsinfoIsClampedAndReportedWithItsLine() throws {
    var text = try Self.capture("l-shape-1236")
    // The first ABS_MT_POSITION_X row, its value replaced by one past the panel.
    let code = try XCTUnwrap(text.range(of: "3,  53,"))
    let close = try XCTUnwrap(text.range(of: "]", range: code.upperBound..<text.endIndex))
    text.replaceSubrange(code.upperBound..<close.lowerBound, with: "     900")
    let line = text[..<code.lowerBound].filter { $0 == "\n" }.count + 1
    let recording = try parseFile(text)
    let converted = try recording.convert(transform: ViewTransform(rotation: .none, panelWidth: 800, panelHeight: 480))
    XCTAssertEqual(converted.clamped, ClampedCoordinates(count: 1, line: line, code: 53, value: 900, minimum: 0, maximum: 799))
    XCTAssertEqual(converted.events.first?.position.x, Point(x: 799, y: 0).x, "the touch-down lands on the panel's edge")
  }

  func testValueBeyond32BitsIsRefusedWithItsLine() throws {
    var text = try Self.capture("l-shape-1236")
    let code = try XCTUnwrap(text.range(of: "3,  53,"))
    let close = try XCTUnwrap(text.range(of: "]", range: code.upperBound..<text.endIndex))
    text.replaceSubrange(code.upperBound..<close.lowerBound, with: " 2147483648")
    let line = text[..<code.lowerBound].filter { $0 == "\n" }.count + 1
    let error = recordingError { _ = try self.parseFile(text) }
    guard case .valueOutOfRange(_, line, "the event value (a signed 32-bit number)", 2_147_483_648, -2_147_483_648, 2_147_483_647)? = error else {
      return XCTFail("unexpected \(String(describing: error))")
    }
    XCTAssertEqual(error?.message.contains("capture.yaml:\(line): the event value (a signed 32-bit number) 2147483648 is outside"), true)
  }

  func testAbsurdNumbersAreRefused() throws {
    let text = try Self.capture("too-short-12")
    let cases: [(String, String)] = [
      ("[  0,      0,   3,  57,", "[  0, 1000000,   3,  57,"),  // microseconds
      ("[  0,      0,   3,  57,", "[ -1,      0,   3,  57,"),  // negative seconds
      ("[  0,      0,   3,  57,", "[  0,      0,  99,  57,"),  // no such event type
      ("[  0,      0,   3,  57,", "[  0,      0,   3, 9999,"),  // no such code
      ("[  0,      0,   3,  57,", "[99999999999999999999999,      0,   3,  57,"),
    ]
    for (from, to) in cases {
      let bad = text.replacingOccurrences(of: from, with: to)
      let error = recordingError { _ = try Recording(parsing: Array(bad.utf8), path: "absurd.yaml") }
      switch error {
      case .valueOutOfRange(_, let line, _, _, _, _)?, .badNumber(_, let line, _, _)?:
        XCTAssertGreaterThan(line, 80, to)
      default:
        XCTFail("unexpected \(String(describing: error)) for \(to)")
      }
    }
  }

  func testRowWithTheWrongShapeIsNotARecording() throws {
    let text = try Self.capture("too-short-12").replacingOccurrences(of: "[  0,      0,   3,  57,", with: "[  0,      0,   3,  57,   1,")
    let error = recordingError { _ = try Recording(parsing: Array(text.utf8), path: "shape.yaml") }
    guard case .notARecording(_, _, let problem)? = error else { return XCTFail("unexpected \(String(describing: error))") }
    XCTAssertTrue(problem.contains("exactly 5 numbers"), problem)
  }

  func testNoTouchDeviceAndNoEventsAreErrors() throws {
    let keysOnly = """
      version: 1
      ndevices: 1
      devices:
      - node: /dev/input/event0
        evdev: {name: "gpio-keys", codes: {1: [116]}}
        events:
        - evdev: [[0, 0, 1, 116, 1], [0, 0, 0, 0, 0]]
      """
    var keys = RecordedDevice(name: "gpio-keys", line: 4, codes: [1: [116]])
    keys.index = 1
    keys.eventCount = 2
    XCTAssertEqual(
      recordingError { _ = try Recording(parsing: Array(keysOnly.utf8), path: "k") },
      .noTouchDevice(path: "k", devices: [DeviceSummary(keys)], total: 1))
    XCTAssertEqual(
      RecordingError.noTouchDevice(path: "k", devices: [DeviceSummary(keys)], total: 1).message,
      "k: no touchscreen or tablet that recorded events among its 1 device: 1 'gpio-keys' (keyboard or buttons: no position at all; 2 events); record the touchscreen's /dev/input/eventN while drawing")

    let text = try Self.capture("l-shape-1236")
    let header = String(text[..<text.range(of: "  events:")!.upperBound]) + "\n"
    XCTAssertEqual(recordingError { _ = try Recording(parsing: Array(header.utf8), path: "n") }, .noEvents(path: "n", device: "raspberrypi-ts"))
  }

  /// The l-shape capture with `extra:` holding `depth` nested lists before `devices:`.
  static func nested(_ depth: Int, open: String = "[", close: String = "]") throws -> [UInt8] {
    let nested = String(repeating: open, count: depth) + String(repeating: close, count: depth)
    return Array(try capture("l-shape-1236").replacingOccurrences(of: "ndevices: 1\n", with: "ndevices: 1\nextra: \(nested)\n").utf8)
  }

  func testNestedUnknownKeysUpToTheLimitAreSkipped() throws {
    // The top-level mapping is one level: 31 lists under it reach 32.
    XCTAssertEqual(try Recording(parsing: Self.nested(31), path: "deep").device.name, "raspberrypi-ts")
    XCTAssertEqual(try Recording(parsing: Self.nested(31, open: "{a: ", close: "}"), path: "deep").device.name, "raspberrypi-ts")
  }

  func testNestingPastTheLimitIsRefusedWithItsLine() throws {
    for depth in [32, 5000, 200_000] {
      let text = try Self.nested(depth)
      let start = Date()
      XCTAssertEqual(
        recordingError { _ = try Recording(parsing: text, path: "deep") },
        .tooDeep(path: "deep", line: 4, limit: 32), "depth \(depth)")
      XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "depth \(depth) is refused at the limit, not read through")
    }
    let message = RecordingError.tooDeep(path: "deep", line: 4, limit: 32).message
    XCTAssertEqual(
      message,
      "deep:4: lists and mappings nest more than 32 levels deep, where a libinput recording nests fewer than 10 (the file was edited or is not a recording; record it again)")
  }
}
