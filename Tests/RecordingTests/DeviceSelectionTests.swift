import PatternCore
import Recording
import XCTest

/// Which device of a multi-device recording is replayed: the rule, `--device N|NAME`,
/// and what each kind of device is taken for.
final class DeviceSelectionTests: XCTestCase {
  /// One device entry in flow style with `touches` taps: multitouch rows (8 a tap)
  /// when `axes` has ABS_MT_TRACKING_ID, else ABS_X/Y and BTN_TOUCH rows (6 a tap).
  static func device(_ name: String, codes: String, axes: [Int], properties: String = "[]", touches: Int) -> String {
    let absinfo = axes.map { "\($0): [0, \($0 == 57 ? 65535 : $0 == 47 ? 9 : 99), 0, 0, 0]" }.joined(separator: ", ")
    var frames: [String] = []
    for i in 0..<touches {
      let (t, u) = (i * 100_000, i * 100_000 + 50_000)
      if axes.contains(57) {
        frames.append("  - evdev: [[0, \(t), 3, 57, \(i)], [0, \(t), 3, 53, 10], [0, \(t), 3, 54, 10], [0, \(t), 1, 330, 1], [0, \(t), 0, 0, 0]]")
        frames.append("  - evdev: [[0, \(u), 3, 57, -1], [0, \(u), 1, 330, 0], [0, \(u), 0, 0, 0]]")
      } else {
        frames.append("  - evdev: [[0, \(t), 3, 0, 10], [0, \(t), 3, 1, 10], [0, \(t), 1, 330, 1], [0, \(t), 0, 0, 0]]")
        frames.append("  - evdev: [[0, \(u), 1, 330, 0], [0, \(u), 0, 0, 0]]")
      }
    }
    return """
      - node: /dev/input/event\(name.count)
        evdev: {name: "\(name)", codes: \(codes), absinfo: {\(absinfo)}, properties: \(properties)}
        events:\(frames.isEmpty ? " []" : "\n" + frames.joined(separator: "\n"))

      """
  }

  static func touchscreen(_ name: String, touches: Int) -> String {
    device(name, codes: "{1: [330], 3: [0, 1, 47, 53, 54, 57]}", axes: [0, 1, 47, 53, 54, 57], properties: "[1]", touches: touches)
  }
  static func touchpad(_ name: String, touches: Int) -> String {
    device(name, codes: "{1: [272, 325, 330], 3: [0, 1, 47, 53, 54, 57]}", axes: [0, 1, 47, 53, 54, 57], touches: touches)
  }
  static func pen(_ name: String, touches: Int) -> String {
    device(name, codes: "{1: [320, 330, 331], 3: [0, 1]}", axes: [0, 1], touches: touches)
  }
  static func keys(_ name: String) -> String { device(name, codes: "{1: [1, 2, 3, 30]}", axes: [], touches: 0) }

  static func recording(_ devices: String...) -> [UInt8] {
    Array(("version: 1\nndevices: \(devices.count)\ndevices:\n" + devices.joined()).utf8)
  }

  func testTheRulePrefersATouchscreenWithEventsWhereverItIsListed() throws {
    let text = Self.recording(
      Self.keys("keys"),
      Self.touchpad("pad", touches: 3),
      Self.pen("pen", touches: 2),
      Self.touchscreen("idle screen", touches: 0),
      Self.touchscreen("screen", touches: 1),
      Self.touchscreen("second screen", touches: 4))
    let recording = try Recording(parsing: text, path: "all.yaml")
    XCTAssertEqual(recording.device.name, "screen")
    XCTAssertEqual(recording.device.index, 5)
    XCTAssertEqual(recording.rows.count, 8, "only the chosen device's rows are kept")
  }

  func testATabletWithEventsIsReplayedWhenNoTouchscreenHasAny() throws {
    let text = Self.recording(
      Self.touchpad("pad", touches: 3),
      Self.touchscreen("idle screen", touches: 0),
      Self.pen("pen", touches: 2),
      Self.pen("second pen", touches: 1))
    let recording = try Recording(parsing: text, path: "all.yaml")
    XCTAssertEqual(recording.device.name, "pen")
    XCTAssertEqual(recording.device.kind, .tablet)
    XCTAssertEqual(recording.rows.count, 12)
  }

  func testATouchpadIsReplayedOnlyWhenAskedFor() throws {
    let text = Self.recording(
      Self.keys("keys"), Self.touchpad("pad", touches: 3))
    XCTAssertThrowsError(try Recording(parsing: text, path: "pad.yaml")) { error in
      XCTAssertEqual(
        (error as? RecordingError)?.message,
        "pad.yaml: no touchscreen or tablet that recorded events among its 2 devices: 1 'keys' (keyboard or buttons: no position at all; 0 events), 2 'pad' (touchpad: positions on a surface beside the screen, not on it; 24 events); record the touchscreen's /dev/input/eventN while drawing, or choose a device with --device N"
      )
    }
    for selection in [DeviceSelection.number(2), .name("pad")] {
      let recording = try Recording(parsing: text, path: "pad.yaml", device: selection)
      XCTAssertEqual(recording.device.name, "pad")
      XCTAssertEqual(recording.rows.count, 24)
    }
  }

  func testTheFirstDeviceOfANameIsChosenAndNumbersCountFromOne() throws {
    let text = Self.recording(
      Self.touchscreen("twin", touches: 1), Self.touchscreen("twin", touches: 2))
    XCTAssertEqual(try Recording(parsing: text, path: "t", device: .name("twin")).rows.count, 8)
    XCTAssertEqual(try Recording(parsing: text, path: "t", device: .number(1)).rows.count, 8)
    XCTAssertEqual(try Recording(parsing: text, path: "t", device: .number(2)).rows.count, 16)
  }

  func testTheDeviceListIsCutAfterEightDevices() throws {
    let devices = (1...12).map { Self.keys("keys \($0)") }
    let text = Array(("version: 1\ndevices:\n" + devices.joined()).utf8)
    XCTAssertThrowsError(try Recording(parsing: text, path: "many")) { error in
      guard case .noTouchDevice(_, let listed, 12)? = error as? RecordingError else { return XCTFail("unexpected \(error)") }
      XCTAssertEqual(listed.count, DeviceSummary.maximumListed)
      XCTAssertTrue((error as? RecordingError)?.message.contains("8 'keys 8' (keyboard or buttons: no position at all; 0 events), and 4 more;") == true)
    }
  }

  func testEmptyDeviceListSaysSo() {
    for selection in [DeviceSelection.automatic, .number(1)] {
      XCTAssertThrowsError(try Recording(parsing: Array("version: 1\ndevices: []\n".utf8), path: "none", device: selection)) { error in
        XCTAssertEqual(
          (error as? RecordingError)?.message,
          "none: its 'devices:' list is empty; record the touchscreen's /dev/input/eventN while drawing")
      }
    }
  }

  func testKindsFollowUdevsRules() {
    func kind(_ codes: [UInt16: [UInt16]], _ properties: [UInt16] = []) -> DeviceKind {
      RecordedDevice(codes: codes, properties: properties).kind
    }
    // A resistive panel without INPUT_PROP_DIRECT is still a touchscreen.
    XCTAssertEqual(kind([1: [330], 3: [0, 1]]), .touchscreen)
    // Multitouch with a finger tool: a touchpad, unless the property says direct.
    XCTAssertEqual(kind([1: [325, 330], 3: [53, 54]]), .touchpad)
    XCTAssertEqual(kind([1: [325, 330], 3: [53, 54]], [1]), .touchscreen)
    // A pen wins over everything; a pad is BTN_0 and BTN_STYLUS without the pen tool.
    XCTAssertEqual(kind([1: [320, 325, 330], 3: [0, 1]], [1]), .tablet)
    XCTAssertEqual(kind([1: [256, 331], 3: [0, 1]]), .tabletPad)
    XCTAssertEqual(kind([1: [272, 273], 3: [0, 1]]), .absolutePointer)
    XCTAssertEqual(kind([1: [272, 273], 2: [0, 1]]), .mouse)
    XCTAssertEqual(kind([1: [116]]), .keys)
    XCTAssertEqual(kind([5: [0]]), .other)
  }
}
