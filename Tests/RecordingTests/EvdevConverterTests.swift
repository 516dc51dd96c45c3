import PatternCore
import Recording
import XCTest

/// The converter on rows made in memory: one behaviour of the kernel protocols per test.
final class EvdevConverterTests: XCTestCase {
  // MARK: Fixtures

  /// A Raspberry Pi 7" panel: multitouch B with 10 slots, axes in panel pixels.
  static let touchscreen = RecordedDevice(
    name: "raspberrypi-ts",
    codes: [1: [330], 3: [0, 1, 47, 53, 54, 57]],
    absinfo: [
      0: AbsInfo(minimum: 0, maximum: 799), 1: AbsInfo(minimum: 0, maximum: 479),
      47: AbsInfo(minimum: 0, maximum: 9),
      53: AbsInfo(minimum: 0, maximum: 799), 54: AbsInfo(minimum: 0, maximum: 479),
      57: AbsInfo(minimum: 0, maximum: 65535),
    ])
  /// A resistive single-touch controller with 12-bit axes.
  static let resistive = RecordedDevice(
    name: "ADS7846 Touchscreen", codes: [1: [330], 3: [0, 1, 24]],
    absinfo: [
      0: AbsInfo(minimum: 0, maximum: 4095), 1: AbsInfo(minimum: 0, maximum: 4095),
      24: AbsInfo(minimum: 0, maximum: 65535),
    ])
  /// QEMU's virtio tablet: an absolute pointer with buttons.
  static let tablet = RecordedDevice(
    name: "QEMU Virtio Tablet", codes: [1: [272, 273, 274], 2: [8], 3: [0, 1]],
    absinfo: [0: AbsInfo(minimum: 0, maximum: 32767), 1: AbsInfo(minimum: 0, maximum: 32767)])

  static let panel = ViewTransform(rotation: .none, panelWidth: 800, panelHeight: 480)

  /// Rows of one frame at `ms` milliseconds, ending with SYN_REPORT.
  static func frame(_ ms: UInt32, _ events: [(UInt16, UInt16, Int32)]) -> [EvdevRow] {
    let rows = events.map {
      EvdevRow(seconds: ms / 1000, microseconds: (ms % 1000) * 1000, type: $0.0, code: $0.1, value: $0.2)
    }
    return rows + [EvdevRow(seconds: ms / 1000, microseconds: (ms % 1000) * 1000, type: 0, code: 0, value: 0)]
  }

  static func convert(
    _ frames: [[EvdevRow]], device: RecordedDevice = touchscreen, transform: ViewTransform = panel
  ) throws -> [TouchEvent] {
    var converter = try EvdevConverter(device: device, transform: transform, path: "test.yaml")
    var events: [TouchEvent] = []
    for row in frames.joined() { try converter.convert(row, into: &events) }
    return events
  }

  static func describe(_ events: [TouchEvent]) -> [String] {
    events.map { e in
      switch e.kind {
      case .frame: return "frame@\(e.timeMicroseconds)"
      case .down, .motion, .up, .cancel:
        return "\(e.kind) \(e.slot) \(e.position.x.decimalString),\(e.position.y.decimalString)@\(e.timeMicroseconds)"
      }
    }
  }

  // MARK: Multitouch

  func testMultitouchTrackingIDStartsAndMinusOneEndsAContact() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 100), (3, 53, 400), (3, 54, 100)]),
      Self.frame(16, [(3, 53, 410)]),
      Self.frame(33, [(3, 57, -1)]),
    ])
    XCTAssertEqual(
      Self.describe(events),
      ["down 0 400,100@0", "frame@0", "motion 0 410,100@16000", "frame@16000", "up 0 410,100@33000", "frame@33000"])
  }

  func testSlotsAreReportedSeparatelyAndInSlotOrder() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 7), (3, 53, 100), (3, 54, 50)]),
      Self.frame(10, [(3, 47, 3), (3, 57, 8), (3, 53, 700), (3, 54, 400), (3, 47, 0), (3, 53, 120)]),
      Self.frame(20, [(3, 47, 3), (3, 57, -1)]),
      Self.frame(30, [(3, 47, 0), (3, 57, -1)]),
    ])
    XCTAssertEqual(
      Self.describe(events),
      [
        "down 0 100,50@0", "frame@0",
        "motion 0 120,50@10000", "down 3 700,400@10000", "frame@10000",
        "up 3 700,400@20000", "frame@20000",
        "up 0 120,50@30000", "frame@30000",
      ])
  }

  func testNewTrackingIDWithoutMinusOneEndsTheOldContactFirst() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 1), (3, 53, 100), (3, 54, 100)]),
      Self.frame(10, [(3, 57, 2), (3, 53, 600), (3, 54, 300)]),
    ])
    XCTAssertEqual(
      Self.describe(events), ["down 0 100,100@0", "frame@0", "up 0 100,100@10000", "down 0 600,300@10000", "frame@10000"])
  }

  func testSlotKeepsItsPositionForTheNextContactBecauseTheKernelSendsOnlyChanges() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 1), (3, 53, 200), (3, 54, 100)]),
      Self.frame(10, [(3, 57, -1)]),
      Self.frame(500, [(3, 57, 2)]),  // same spot: no position rows
    ])
    XCTAssertEqual(Self.describe(events).last(where: { $0.hasPrefix("down") }), "down 0 200,100@500000")
    XCTAssertEqual(events.filter { $0.kind == .down }.count, 2)
  }

  func testContactWaitsForItsFirstPositionBeforeGoingDown() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 1), (3, 53, 200)]),
      Self.frame(10, [(3, 54, 300)]),
    ])
    XCTAssertEqual(Self.describe(events), ["down 0 200,300@10000", "frame@10000"])
  }

  func testReportWithoutChangesEmitsNoFrame() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 1), (3, 53, 200), (3, 54, 100)]),
      Self.frame(10, [(3, 53, 200)]),  // same value again: no motion
      Self.frame(20, [(1, 330, 1)]),  // legacy button of a multitouch device: ignored
    ])
    XCTAssertEqual(Self.describe(events), ["down 0 200,100@0", "frame@0"])
  }

  func testSynDroppedCancelsContactsAndSkipsToTheNextReport() throws {
    let events = try Self.convert([
      Self.frame(0, [(3, 57, 1), (3, 53, 200), (3, 54, 100)]),
      [EvdevRow(seconds: 0, microseconds: 5000, type: 0, code: 3, value: 0)],
      Self.frame(10, [(3, 53, 300)]),  // lost in the overflow
      Self.frame(20, [(3, 53, 310)]),  // the old contact: no tracking ID, so ignored
      Self.frame(30, [(3, 57, 9), (3, 53, 320), (3, 54, 110)]),
    ])
    XCTAssertEqual(
      Self.describe(events), ["down 0 200,100@0", "frame@0", "cancel 0 200,100@5000", "frame@5000", "down 0 320,110@30000", "frame@30000"])
  }

  func testMultitouchIgnoresTheLegacySingleTouchAxes() throws {
    let events = try Self.convert([Self.frame(0, [(3, 57, 1), (3, 53, 200), (3, 54, 100), (3, 0, 700), (3, 1, 400)])])
    XCTAssertEqual(Self.describe(events), ["down 0 200,100@0", "frame@0"])
  }

  // MARK: Single touch and pointer

  func testSingleTouchUsesBtnTouchForDownAndUp() throws {
    let events = try Self.convert(
      [
        Self.frame(0, [(1, 330, 1), (3, 0, 2048), (3, 1, 1024), (3, 24, 50000)]),
        Self.frame(12, [(3, 0, 2560)]),
        Self.frame(25, [(1, 330, 0), (3, 24, 0)]),
      ], device: Self.resistive)
    // 2048 of 4096 values is the middle of 800 pixels; 1024 a quarter of 480.
    XCTAssertEqual(
      Self.describe(events),
      ["down 0 400,120@0", "frame@0", "motion 0 500,120@12000", "frame@12000", "up 0 500,120@25000", "frame@25000"])
  }

  func testPointerHoverWithTheButtonUpIsIgnored() throws {
    let events = try Self.convert(
      [
        Self.frame(0, [(3, 0, 8192), (3, 1, 8192)]),
        Self.frame(10, [(1, 272, 1)]),
        Self.frame(20, [(3, 0, 16384)]),
        Self.frame(30, [(1, 272, 0)]),
        Self.frame(40, [(3, 0, 24576)]),
        Self.frame(50, [(1, 273, 1)]),  // right button: not a touch
      ], device: Self.tablet)
    XCTAssertEqual(
      Self.describe(events),
      ["down 0 200,120@10000", "frame@10000", "motion 0 400,120@20000", "frame@20000", "up 0 400,120@30000", "frame@30000"])
  }

  func testDeviceWithoutTouchAxesIsRejected() {
    let mouse = RecordedDevice(name: "mouse", codes: [1: [272], 2: [0, 1]])
    XCTAssertThrowsError(try EvdevConverter(device: mouse, transform: Self.panel)) { error in
      XCTAssertEqual(error as? RecordingError, .cannotReplay(path: "recording", device: DeviceSummary(mouse)))
      XCTAssertEqual(
        (error as? RecordingError)?.message,
        "recording: device 0 'mouse' (mouse: relative motion only, no position on the screen; 0 events) cannot draw a pattern; choose a touchscreen or tablet with --device, or record one")
    }
    XCTAssertNil(mouse.touchProtocol)
    XCTAssertEqual(Self.touchscreen.touchProtocol, .multitouch)
    XCTAssertEqual(Self.resistive.touchProtocol, .singleTouch)
    XCTAssertEqual(Self.tablet.touchProtocol, .pointer)
  }

  // MARK: Mapping

  func testAxisRangeMapsOntoThePanelLikeLibinput() throws {
    var device = Self.touchscreen
    device = RecordedDevice(
      name: device.name, codes: device.codes,
      absinfo: device.absinfo.merging([53: AbsInfo(minimum: 100, maximum: 899), 54: AbsInfo(minimum: -240, maximum: 239)]) { $1 })
    let converter = try EvdevConverter(device: device, transform: Self.panel)
    // (v - min) * size / (max - min + 1): the minimum is the panel's edge, the maximum
    // one value short of the far edge.
    XCTAssertEqual(converter.viewPoint(x: 100, y: -240), Point(x: 0, y: 0))
    XCTAssertEqual(converter.viewPoint(x: 899, y: 239), Point(x: 799, y: 479))
    XCTAssertEqual(converter.viewPoint(x: 500, y: 0), Point(x: 400, y: 240))

    let tablet = try EvdevConverter(device: Self.tablet, transform: Self.panel)
    // 1 of 32768 values is 800/32768 = 0.0244140625 px: 1600 raw units, rounded to nearest.
    XCTAssertEqual(tablet.viewPoint(x: 1, y: 0).x.raw, 1600)
    XCTAssertEqual(tablet.viewPoint(x: 32767, y: 32767), Point(x: Fixed16(raw: 52_427_200), y: Fixed16(raw: 31_456_320)))
  }

  func testEveryRotationMapsThePanelPointIntoTheView() throws {
    // Panel point (600, 100) on an 800x480 panel.
    let expected: [(Rotation, Point)] = [
      (.none, Point(x: 600, y: 100)),
      (.clockwise90, Point(x: 100, y: 200)),
      (.upsideDown, Point(x: 200, y: 380)),
      (.clockwise270, Point(x: 380, y: 600)),
    ]
    for (rotation, point) in expected {
      let transform = ViewTransform(rotation: rotation, panelWidth: 800, panelHeight: 480)
      let events = try Self.convert([Self.frame(0, [(3, 57, 1), (3, 53, 600), (3, 54, 100)])], transform: transform)
      XCTAssertEqual(events.first?.position, point, "rotation \(rotation.degrees)")
      XCTAssertEqual(transform.panelPoint(fromView: point), Point(x: 600, y: 100), "rotation \(rotation.degrees)")
    }
  }

  // MARK: Bad rows

  func testPositionsOutsideTheAxisRangeAreClampedOntoItAndCounted() throws {
    var converter = try EvdevConverter(device: Self.touchscreen, transform: Self.panel, path: "edge.yaml")
    var events: [TouchEvent] = []
    func row(_ code: UInt16, _ value: Int32, line: Int) -> EvdevRow {
      EvdevRow(seconds: 0, microseconds: 0, type: 3, code: code, value: value, line: line)
    }
    for r in [row(57, 1, line: 40), row(53, 800, line: 42), row(54, -3, line: 43), EvdevRow(seconds: 0, microseconds: 0, type: 0, code: 0, value: 0)] {
      try converter.convert(r, into: &events)
    }
    XCTAssertEqual(events.first?.position, converter.viewPoint(x: 799, y: 0), "800 and -3 become the range's ends")
    // A legacy ABS_X past its range is ignored on a multitouch device: not counted.
    try converter.convert(row(0, 5000, line: 44), into: &events)
    try converter.convert(row(53, 1_000_000, line: 45), into: &events)
    XCTAssertEqual(
      converter.clamped,
      ClampedCoordinates(count: 3, line: 42, code: 53, value: 800, minimum: 0, maximum: 799), "the first one, and how many")
    let warning = try XCTUnwrap(converter.clamped?.warning(path: "edge.yaml", device: "raspberrypi-ts"))
    XCTAssertTrue(
      warning.hasPrefix("warning: edge.yaml:42: device 'raspberrypi-ts' sent 3 positions outside its absinfo range, the first ABS_MT_POSITION_X 800 outside 0...799; replayed clamped"),
      warning)
    XCTAssertFalse(warning.contains("\n"))
  }

  func testPositionsAtTheRangesEndsAreNotClamped() throws {
    var converter = try EvdevConverter(device: Self.touchscreen, transform: Self.panel)
    var events: [TouchEvent] = []
    for r in Self.frame(0, [(3, 57, 1), (3, 53, 0), (3, 54, 479)]) + Self.frame(10, [(3, 53, 799), (3, 54, 0)]) {
      try converter.convert(r, into: &events)
    }
    XCTAssertEqual(events.filter { $0.kind != .frame }.count, 2)
    XCTAssertNil(converter.clamped)
  }

  func testSlotBeyondTheDevicesSlotsIsAnError() throws {
    XCTAssertThrowsError(try Self.convert([Self.frame(0, [(3, 47, 10)])])) { error in
      guard case .valueOutOfRange(_, _, "ABS_MT_SLOT", 10, 0, 9)? = error as? RecordingError else {
        return XCTFail("unexpected \(error)")
      }
    }
  }

  func testAxisWithoutAbsinfoIsAnError() throws {
    XCTAssertThrowsError(try Self.convert([Self.frame(0, [(3, 58, 30)])])) { error in
      guard case .missingAbsinfo(_, _, 58)? = error as? RecordingError else { return XCTFail("unexpected \(error)") }
    }
    let noY = RecordedDevice(name: "x", codes: [1: [330], 3: [0, 1]], absinfo: [0: AbsInfo(minimum: 0, maximum: 99)])
    XCTAssertThrowsError(try EvdevConverter(device: noY, transform: Self.panel)) { error in
      guard case .missingAbsinfo(_, _, 1)? = error as? RecordingError else { return XCTFail("unexpected \(error)") }
    }
  }

  func testEmptyAxisRangeIsAnError() {
    let flat = RecordedDevice(
      name: "x", codes: [1: [330], 3: [0, 1]],
      absinfo: [0: AbsInfo(minimum: 5, maximum: 5), 1: AbsInfo(minimum: 0, maximum: 99)])
    XCTAssertThrowsError(try EvdevConverter(device: flat, transform: Self.panel)) { error in
      guard case .invalidAbsinfo(_, _, 0, 5, 5)? = error as? RecordingError else { return XCTFail("unexpected \(error)") }
    }
  }
}
