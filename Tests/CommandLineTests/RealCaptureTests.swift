import CommandTestSupport
import Foundation
import PatternCore
import Recording
import XCTest

/// The recordings of real hardware in Tests/Captures/real, through the built
/// `patternlock replay`: each replays to the lines its strokes give on the layout
/// chosen for its panel, or is refused saying which device it holds and why.
///
/// The layouts (README.md there says why each): the panel's pixel size when the
/// hardware is known, else the touch range's shape; a rotation where the recorded
/// stroke, drawn for another program, crosses the grid only when the panel is turned.
/// The expected lines were worked out from the strokes' raw positions and the layout's
/// dot centres, then checked against the program.
final class RealCaptureTests: XCTestCase {
  /// A recording that replays: its options and every line it must print.
  struct Replayed {
    let name: String
    let arguments: [String]
    let lines: [String]
  }

  static func dots(_ dots: [Int], _ result: String = "too-short") -> String {
    "{\"dots\":[\(dots.map(String.init).joined(separator: ","))],\"result\":\"\(result)\"}"
  }

  static let replayed: [Replayed] = [
    // 800x480 axes, one finger straight up the middle and back down: on the panel
    // turned upright the middle row, 6-5-4, and then the same dots again.
    Replayed(name: "atmel-mxt-drag-up-down", arguments: ["--rotate", "90"], lines: [dots([6, 5, 4])]),
    // Nine taps around the middle, 0.22 s apart: five land on dot 5. Dragged, each is a
    // one-dot pattern, and two of those come while the previous verdict is still
    // shown (0.5 s), so are ignored.
    Replayed(name: "atmel-mxt-fast-taps", arguments: ["--rotate", "90", "--input", "drag"], lines: [dots([5]), dots([5]), dots([5])]),
    Replayed(
      name: "atmel-mxt-fast-taps", arguments: ["--rotate", "90", "--feedback-ms", "0", "--input", "drag"],
      lines: [dots([5]), dots([5]), dots([5]), dots([5]), dots([5])]),
    // With taps taken too (input = both, the default) each is a tap: a second tap on 5
    // confirms the first, so the five make two patterns and a fifth tap, which the
    // pause after the recording's end confirms.
    Replayed(
      name: "atmel-mxt-fast-taps", arguments: ["--rotate", "90", "--feedback-ms", "0"],
      lines: [dots([5]), dots([5]), dots([5])]),
    // 3008x1856 axes (16:10): up and down twice through the middle, from 28% to 82%
    // of the height; on 1280x800 turned upright that is dots 5 and 6, not 4 (at 20%).
    Replayed(name: "elan-cando-drag-up-down", arguments: ["--size", "1280x800", "--rotate", "90"], lines: [dots([5, 6])]),
    // The EP0430M09 module's panel is 480x272. The first finger rests left of the
    // grid; the second rests on dot 5 and is ignored.
    Replayed(name: "ep0430m09-2-fingers", arguments: ["--size", "480x272"], lines: []),
    // Four fingers drag together; the first is left of the grid, so nothing joins,
    // though the fourth crosses the right column (testFourFingerDrag...).
    Replayed(name: "ep0430m09-4-finger-drag-down", arguments: ["--size", "480x272"], lines: []),
    // Down and up near the middle: the drag passes the grid's left column at 4 and 7.
    Replayed(name: "ep0430m09-drag-up-down", arguments: ["--size", "480x272"], lines: [dots([4, 7])]),
    // The pen only hovers: BTN_TOUCH never goes down, so there is no gesture.
    Replayed(name: "genius-easypen", arguments: [], lines: []),
    // The keyboard's pointer interface (no events) is passed over for the touchscreen.
    Replayed(name: "multi-keyboard-then-atmel", arguments: ["--rotate", "90"], lines: [dots([6, 5, 4])]),
    // The idle touchpad is passed over for the touchscreen.
    Replayed(name: "multi-touchpad-then-ep0430m09", arguments: ["--size", "480x272"], lines: [dots([4, 7])]),
    // Protocol A, replayed from its single-touch ABS_X/Y and BTN_TOUCH: corner to
    // corner of a 4:3 panel, past 4 and 9 of the grid on its right.
    Replayed(name: "ntrig-typeA-drag-nw-se", arguments: ["--size", "1024x768"], lines: [dots([4, 9])]),
    // Nine strokes on a 1920x1080 monitor, mostly left of the grid; one tap on dot 4.
    Replayed(name: "quanta-optical", arguments: ["--size", "1920x1080"], lines: [dots([4])]),
    // A tablet mapped onto a 1024x768 screen: one short stroke down, ending on dot 4.
    Replayed(name: "uclogic-wp5540u-pen", arguments: ["--size", "1024x768"], lines: [dots([4])]),
    // A 1920x1080 pen display: seven pen touches; only the first lands on a dot, 4.
    Replayed(name: "wacom-dth2242-pen", arguments: ["--size", "1920x1080"], lines: [dots([4])]),
    // A 16:10 tablet on a 1024x768 screen: one diagonal stroke past 4 and 8.
    Replayed(name: "wacom-intuos4-stylus-drag", arguments: ["--size", "1024x768"], lines: [dots([4, 8])]),
    // A 1366x768 tablet PC's screen: a small circle round the middle touches dot 4.
    Replayed(name: "wacom-isdv4-e6-finger-circle", arguments: ["--size", "1366x768"], lines: [dots([4])]),
  ]

  /// Recordings with no device that can draw a pattern, and what the refusal must say.
  static let refused: [(name: String, fragments: [String])] = [
    (
      "kernel-doc-hp-mouse",
      ["no touchscreen or tablet that recorded events among its 1 device: 1 'PixArt HP USB Optical Mouse' (mouse: relative motion only, no position on the screen; 12 events)"]
    ),
    (
      "wacom-intuos-bt-m-pad",
      ["no touchscreen or tablet that recorded events among its 1 device: 1 'Wacom Intuos BT M Pad' (tablet pad: buttons and rings, no pen position; 24 events)"]
    ),
  ]

  func replay(_ name: String, _ arguments: [String]) throws -> CommandResult {
    try PatternlockBinary.run(["replay", Captures.realPath(name)] + arguments)
  }

  /// A real recording's text with `change` applied, written to a temporary file.
  func edited(_ name: String, _ change: (String) throws -> String) throws -> String {
    let text = try String(contentsOfFile: Captures.realPath(name), encoding: .utf8)
    let url = try makeTemporaryDirectory().appendingPathComponent(name + ".yml")
    try Data(try change(text).utf8).write(to: url)
    return url.path
  }

  /// The 1-based line of the first occurrence of `fragment`.
  static func line(of fragment: String, in text: String) throws -> Int {
    let range = try XCTUnwrap(text.range(of: fragment), "no '\(fragment)'")
    return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
  }

  /// Checks a refusal: exit 2, nothing on stdout, one `patternlock: ` line on stderr.
  func assertRefused(_ run: CommandResult, _ fragments: [String], _ context: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(run.status, 2, context, file: file, line: line)
    XCTAssertEqual(run.stdout, "", context, file: file, line: line)
    XCTAssertTrue(run.stderr.hasPrefix("patternlock: "), run.stderr, file: file, line: line)
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr, file: file, line: line)
    for fragment in fragments {
      XCTAssertTrue(run.stderr.contains(fragment), "\(context): \(run.stderr) lacks '\(fragment)'", file: file, line: line)
    }
  }

  // MARK: Every recording

  func testEveryRealCaptureIsTestedAndNamesItsSource() throws {
    let names = try Captures.realNames()
    XCTAssertEqual(names.count, 17)
    XCTAssertEqual(Set(names), Set(Self.replayed.map(\.name) + Self.refused.map(\.name)), "each recording needs an expectation")
    for name in names {
      let text = try String(contentsOfFile: Captures.realPath(name), encoding: .utf8)
      XCTAssertTrue(text.hasPrefix("# source: "), "\(name) must open with its '# source:' line")
    }
  }

  func testRealCapturesReplayToTheirExpectedLines() throws {
    for capture in Self.replayed {
      let context = ([capture.name] + capture.arguments).joined(separator: " ")
      let run = try replay(capture.name, capture.arguments)
      XCTAssertEqual(run.status, 0, "\(context): \(run.stderr)")
      XCTAssertEqual(run.stdout, capture.lines.map { $0 + "\n" }.joined(), context)
      XCTAssertEqual(run.stderr, "", context)
      if capture.name.contains("drag-up-down") || capture.name.contains("drag-nw-se") || capture.name.contains("stylus-drag") {
        XCTAssertFalse(capture.lines.isEmpty, "\(context): a one-finger drag must cross the grid on its layout")
      }
    }
  }

  func testDevicesThatCannotDrawAreRefusedSayingWhatTheyAre() throws {
    for (name, fragments) in Self.refused {
      let run = try replay(name, [])
      assertRefused(run, fragments, name)
      XCTAssertFalse(run.stderr.contains("--device"), "no device in \(name) could be chosen: \(run.stderr)")
    }
  }

  func testEachRealDeviceIsTheKindUdevWouldTagIt() throws {
    // (recording, [(kind, evdev rows)] per device in file order)
    let expected: [(String, [(DeviceKind, Int)])] = [
      ("atmel-mxt-drag-up-down", [(.touchscreen, 502)]),
      ("atmel-mxt-fast-taps", [(.touchscreen, 84)]),
      ("elan-cando-drag-up-down", [(.touchscreen, 1527)]),
      ("ep0430m09-2-fingers", [(.touchscreen, 58)]),
      ("ep0430m09-4-finger-drag-down", [(.touchscreen, 1091)]),
      ("ep0430m09-drag-up-down", [(.touchscreen, 735)]),
      ("genius-easypen", [(.tablet, 2421)]),
      ("kernel-doc-hp-mouse", [(.mouse, 12)]),
      ("multi-keyboard-then-atmel", [(.mouse, 0), (.touchscreen, 502)]),
      ("multi-touchpad-then-ep0430m09", [(.touchpad, 0), (.touchscreen, 735)]),
      ("ntrig-typeA-drag-nw-se", [(.touchscreen, 955)]),
      ("quanta-optical", [(.touchscreen, 2832)]),
      ("uclogic-wp5540u-pen", [(.tablet, 1458)]),
      ("wacom-dth2242-pen", [(.tablet, 5292)]),
      ("wacom-intuos-bt-m-pad", [(.tabletPad, 24)]),
      ("wacom-intuos4-stylus-drag", [(.tablet, 1799)]),
      ("wacom-isdv4-e6-finger-circle", [(.touchscreen, 412)]),
    ]
    XCTAssertEqual(Set(expected.map(\.0)), Set(try Captures.realNames()))
    for (name, devices) in expected {
      // A number past the last device makes the parser list them all.
      do {
        _ = try Recording(contentsOf: Captures.realPath(name), device: .number(99))
        XCTFail("\(name): device 99 was found")
      } catch let RecordingError.noSuchDevice(_, _, listed, total) {
        XCTAssertEqual(total, devices.count, name)
        XCTAssertEqual(listed.map(\.kind), devices.map(\.0), name)
        XCTAssertEqual(listed.map(\.eventCount), devices.map(\.1), name)
        XCTAssertEqual(listed.map(\.index), Array(1...devices.count), name)
      }
    }
  }

  // MARK: Several devices in one file

  func testIdleTouchpadListedFirstIsPassedOverForTheTouchscreen() throws {
    let recording = try Recording(contentsOf: Captures.realPath("multi-touchpad-then-ep0430m09"))
    XCTAssertEqual(recording.device.name, "EP0430M09")
    XCTAssertEqual(recording.device.index, 2)
    XCTAssertEqual(recording.device.kind, .touchscreen)
    XCTAssertEqual(recording.rows.count, 735, "only the touchscreen's rows are kept")
    let alone = try Recording(contentsOf: Captures.realPath("ep0430m09-drag-up-down"))
    XCTAssertEqual(recording.rows.map(\.value), alone.rows.map(\.value), "the same events as the touchscreen's own recording")
  }

  func testDeviceOptionChoosesByNumberAndByName() throws {
    let name = "multi-touchpad-then-ep0430m09"
    for choice in [["--device", "2"], ["--device=2"], ["--device", "EP0430M09"], ["--device=EP0430M09"]] {
      let run = try replay(name, ["--size", "480x272"] + choice)
      XCTAssertEqual(run.status, 0, "\(choice): \(run.stderr)")
      XCTAssertEqual(run.stdout, Self.dots([4, 7]) + "\n", "\(choice)")
    }
    // Asked for by number or name, the idle touchpad is tried and has nothing.
    for choice in ["1", "AlpsPS/2 ALPS GlidePoint"] {
      assertRefused(try replay(name, ["--device", choice]), ["device 'AlpsPS/2 ALPS GlidePoint' recorded no events"], choice)
    }
    // The keyboard's pointer interface cannot draw, asked for or not.
    assertRefused(
      try replay("multi-keyboard-then-atmel", ["--device", "1"]),
      ["device 1 'CHICONY USB Keyboard' (mouse: relative motion only, no position on the screen; 0 events) cannot draw a pattern"],
      "keyboard")
  }

  func testDeviceThatIsNotInTheFileListsTheDevicesFound() throws {
    let list =
      "among its 2 devices: 1 'AlpsPS/2 ALPS GlidePoint' (touchpad: positions on a surface beside the screen, not on it; 0 events), 2 'EP0430M09' (touchscreen, 735 events); give --device a number from 1 to 2 or one of these names"
    let path = Captures.realPath("multi-touchpad-then-ep0430m09")
    assertRefused(try replay("multi-touchpad-then-ep0430m09", ["--device", "3"]), ["\(path): there is no device number 3 \(list)"], "3")
    assertRefused(
      try replay("multi-touchpad-then-ep0430m09", ["--device", "ep0430m09"]), ["there is no device named 'ep0430m09' \(list)"],
      "names are matched exactly")
  }

  func testNoFittingDeviceListsWhatEachDeviceIs() throws {
    // The touchscreen of the laptop capture, its events removed: nothing fits, and
    // the touchpad can still be asked for.
    let path = try edited("multi-touchpad-then-ep0430m09") { text in
      let events = try XCTUnwrap(text.range(of: "  events:", options: .backwards))
      return String(text[..<events.upperBound]) + "\n"
    }
    assertRefused(
      try PatternlockBinary.run(["replay", path]),
      [
        "no touchscreen or tablet that recorded events among its 2 devices: 1 'AlpsPS/2 ALPS GlidePoint' (touchpad: positions on a surface beside the screen, not on it; 0 events), 2 'EP0430M09' (touchscreen, 0 events); record the touchscreen's /dev/input/eventN while drawing, or choose a device with --device N"
      ], "both idle")
  }

  func testBadDeviceArgumentIsAUsageError() throws {
    for bad in ["0", "", "1234567890"] {
      let run = try replay("multi-touchpad-then-ep0430m09", ["--device", bad])
      assertRefused(run, ["command line: --device cannot be '\(bad)': it takes a device's number in the recording (1 for the first) or its name"], bad)
    }
  }

  // MARK: Values and limits

  func testCoordinateOutsideTheRangeIsClampedWithOneWarning() throws {
    // The drag's top, ABS_MT_POSITION_Y 89, moved above the panel: clamped to 0, the
    // finger still crosses the same dots, and one line says so.
    var rowLine = 0
    let path = try edited("atmel-mxt-drag-up-down") { text in
      let row = "3,  54,      89]"
      rowLine = try Self.line(of: row, in: text)
      return text.replacingOccurrences(of: row, with: "3,  54,     -20]")
    }
    let run = try PatternlockBinary.run(["replay", path, "--rotate", "90"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, Self.dots([6, 5, 4]) + "\n")
    XCTAssertEqual(
      run.stderr,
      "patternlock: warning: \(path):\(rowLine): device 'Atmel maXTouch Touchscreen' sent 1 position outside its absinfo range, the first ABS_MT_POSITION_Y -20 outside 0...479; replayed clamped onto the range, at the panel's edge, as real panels send such values (if most positions are outside, the device description does not belong to these events: record again)\n"
    )
  }

  func testCoordinateBeyond32BitsIsRefusedNamingItsLine() throws {
    var rowLine = 0
    let path = try edited("atmel-mxt-drag-up-down") { text in
      let row = "3,  53,     361]"
      rowLine = try Self.line(of: row, in: text)
      return text.replacingOccurrences(of: row, with: "3,  53, 4294967296]")
    }
    assertRefused(
      try PatternlockBinary.run(["replay", path]),
      ["\(path):\(rowLine): the event value (a signed 32-bit number) 4294967296 is outside -2147483648...2147483647"], "33 bits")
  }

  func testDeepNestingIsRefusedFastWhateverTheFileSize() throws {
    let tooDeep = ["lists and mappings nest more than 32 levels deep"]
    // 200 000 levels took over two minutes before the limit.
    var extraLine = 0
    let deep = try edited("ep0430m09-drag-up-down") { text in
      extraLine = try Self.line(of: "ndevices: 1\n", in: text) + 1
      return text.replacingOccurrences(
        of: "ndevices: 1\n",
        with: "ndevices: 1\nextra: " + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "\n")
    }
    // Just under the 64 MiB limit, all of it nesting.
    let huge = try makeTemporaryDirectory().appendingPathComponent("huge.yml")
    var bytes = Array("version: 1\nextra: ".utf8)
    bytes += [UInt8](repeating: UInt8(ascii: "{"), count: Int(Recording.maximumFileBytes) - bytes.count - 1)
    try Data(bytes).write(to: huge)
    for (path, line) in [(deep, extraLine), (huge.path, 2)] {
      let start = Date()
      let run = try PatternlockBinary.run(["replay", path])
      let seconds = Date().timeIntervalSince(start)
      assertRefused(run, ["\(path):\(line): "] + tooDeep, path)
      XCTAssertLessThan(seconds, 1, "\(path) took \(seconds) s")
    }
  }

  // MARK: Fingers

  func testFourFingerDragFollowsOnlyTheFirstFinger() throws {
    // The empty replay must come from the rule (the first finger owns the gesture),
    // not from no finger reaching a dot: the fourth finger crosses one.
    let layout = try GridLayout(LayoutOptions(panelWidth: 480, panelHeight: 272))
    let recording = try Recording(contentsOf: Captures.realPath("ep0430m09-4-finger-drag-down"))
    let events = try recording.touchEvents(transform: layout.transform)
    func crossesADot(_ slot: Int32) -> Bool {
      let r = Int64(layout.hitRadius.raw)
      return events.contains { event in
        event.slot == slot && (event.kind == .down || event.kind == .motion)
          && (1...layout.dotCount).contains { event.position.squaredDistance(to: layout.centre(of: $0)) <= r * r }
      }
    }
    XCTAssertEqual(Set(events.filter { $0.kind == .down }.map(\.slot)), [0, 1, 2, 3])
    XCTAssertFalse(crossesADot(0))
    XCTAssertTrue(crossesADot(3))
  }
}
