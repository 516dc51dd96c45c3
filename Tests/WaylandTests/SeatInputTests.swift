import PatternCore
import Wayland
import XCTest

/// The seat's events as the gesture code's input: only the drawing surface's, scaled
/// from logical units to frame pixels, a held left button as one finger.
final class SeatInputTests: XCTestCase {
  /// A 640x360 logical surface drawn at scale 2 (1280x720 frames), tag 1.
  func makeInput(rotation: Rotation = .none) -> SeatInput {
    SeatInput(
      drawingSurface: 1, surfaceWidth: 640, surfaceHeight: 360, frameWidth: 1280, frameHeight: 720,
      transform: ViewTransform(rotation: rotation, panelWidth: 1280, panelHeight: 720))
  }

  func fixed(_ value: Int) -> Int32 { Int32(value * 256) }

  /// The events read one millisecond apart on the loop's clock, from 1 s on.
  func events(_ input: inout SeatInput, _ seat: [SeatEvent]) -> [InputEvent] {
    var out: [InputEvent] = []
    for (index, event) in seat.enumerated() { input.translate(event, at: 1_000_000 + UInt64(index) * 1000) { out.append($0) } }
    return out
  }

  func touches(_ events: [InputEvent]) -> [TouchEvent] {
    events.compactMap { if case .touch(let t) = $0 { return t } else { return nil } }
  }

  func testPositionsScaleFromLogicalUnitsToFramePixels() {
    let input = makeInput()
    XCTAssertEqual(input.viewPoint(x: fixed(100), y: fixed(50)), Point(x: 200, y: 100))
    // Half a logical unit is one frame pixel.
    XCTAssertEqual(input.viewPoint(x: 128, y: 128), Point(x: 1, y: 1))
  }

  func testTheLayoutsTurnApplies() {
    let input = makeInput(rotation: .upsideDown)
    XCTAssertEqual(input.viewPoint(x: 0, y: 0), Point(x: 1280, y: 720))
  }

  func testAHeldLeftButtonIsOneFingerWithFrames() {
    var input = makeInput()
    let out = touches(
      events(
        &input,
        [
          .pointerEnter(surface: 1, x: fixed(10), y: fixed(10)),
          .pointerMotion(timeMilliseconds: 1, x: fixed(20), y: fixed(20)),
          .pointerButton(timeMilliseconds: 2, button: 0x110, pressed: true),
          .pointerMotion(timeMilliseconds: 3, x: fixed(30), y: fixed(20)),
          .pointerButton(timeMilliseconds: 4, button: 0x110, pressed: false),
        ]))
    XCTAssertEqual(out.map(\.kind), [.down, .frame, .motion, .frame, .up, .frame])
    XCTAssertEqual(out[0].position, Point(x: 40, y: 40))
    XCTAssertEqual(out[2].position, Point(x: 60, y: 40))
    XCTAssertEqual(out[2].timeMicroseconds, 1_003_000, "the loop's clock when read, not the compositor's time")
    XCTAssertTrue(out.allSatisfy { $0.slot == 0 })
  }

  func testHoverAndOtherButtonsDrawNothing() {
    var input = makeInput()
    let out = events(
      &input,
      [
        .pointerEnter(surface: 1, x: 0, y: 0),
        .pointerMotion(timeMilliseconds: 1, x: fixed(20), y: fixed(20)),
        .pointerButton(timeMilliseconds: 2, button: 0x111, pressed: true),
        .pointerMotion(timeMilliseconds: 3, x: fixed(30), y: fixed(20)),
      ])
    XCTAssertTrue(out.isEmpty)
  }

  func testAnotherOutputsSurfaceDrawsNothing() {
    var input = makeInput()
    let out = events(
      &input,
      [
        .pointerEnter(surface: 2, x: 0, y: 0),
        .pointerButton(timeMilliseconds: 2, button: 0x110, pressed: true),
        .pointerMotion(timeMilliseconds: 3, x: fixed(30), y: fixed(20)),
        .touchDown(surface: 2, id: 0, timeMilliseconds: 4, x: 0, y: 0),
        .touchMotion(id: 0, timeMilliseconds: 5, x: 0, y: 0),
        .touchUp(id: 0, timeMilliseconds: 6),
      ])
    XCTAssertEqual(touches(out).map(\.kind), [], "only frames and nothing else would do harm; here there are none")
  }

  func testLeavingWithTheButtonHeldEndsTheFinger() {
    var input = makeInput()
    let out = touches(
      events(
        &input,
        [
          .pointerEnter(surface: 1, x: 0, y: 0),
          .pointerButton(timeMilliseconds: 2, button: 0x110, pressed: true),
          .pointerLeave(surface: 1),
          .pointerMotion(timeMilliseconds: 3, x: fixed(30), y: fixed(20)),
        ]))
    XCTAssertEqual(out.map(\.kind), [.down, .frame, .up, .frame])
  }

  func testTouchesKeepTheirIdsAsSlots() {
    var input = makeInput()
    let out = touches(
      events(
        &input,
        [
          .touchDown(surface: 1, id: 3, timeMilliseconds: 1, x: fixed(5), y: fixed(5)),
          .touchFrame,
          .touchMotion(id: 3, timeMilliseconds: 2, x: fixed(6), y: fixed(5)),
          .touchMotion(id: 9, timeMilliseconds: 2, x: fixed(6), y: fixed(5)),
          .touchUp(id: 3, timeMilliseconds: 3),
          .touchCancel,
        ]))
    XCTAssertEqual(out.map(\.kind), [.down, .frame, .motion, .up])
    XCTAssertEqual(out[0].slot, 3)
    XCTAssertEqual(out[0].position, Point(x: 10, y: 10))
  }

  func testACancelEndsOwnFingers() {
    var input = makeInput()
    let out = touches(events(&input, [.touchDown(surface: 1, id: 0, timeMilliseconds: 1, x: 0, y: 0), .touchCancel]))
    XCTAssertEqual(out.map(\.kind), [.down, .cancel])
  }

  func testTheCompositorsTimesNeverMoveTheLocksClock() {
    var input = makeInput()
    var out: [InputEvent] = []
    input.translate(.pointerEnter(surface: 1, x: 0, y: 0), at: 5) { out.append($0) }
    // A time far ahead (a made-up one, or another base) would end a lockout early.
    input.translate(.pointerButton(timeMilliseconds: UInt32.max, button: 0x110, pressed: true), at: 7) { out.append($0) }
    input.translate(.touchDown(surface: 1, id: 0, timeMilliseconds: UInt32.max, x: 0, y: 0), at: 9) { out.append($0) }
    XCTAssertEqual(touches(out).map(\.timeMicroseconds), [7, 7, 9])
  }

  func testKeysBecomeActionsByKeysymThenByPlace() {
    var input = makeInput()
    let out = events(
      &input,
      [
        .key(keysym: 0x35, evdevCode: 6),  // '5'
        .key(keysym: 0x26, evdevCode: 2),  // '&' on AZERTY's 1 key
        .key(keysym: 0xffb9, evdevCode: 73),  // KP_9
        .key(keysym: 0xff95, evdevCode: 71),  // KP_Home without Num Lock
        .key(keysym: 0xff08, evdevCode: 14),
        .key(keysym: 0xff0d, evdevCode: 28),
        .key(keysym: 0xff1b, evdevCode: 1),
        .key(keysym: 0x61, evdevCode: 30),  // 'a'
      ])
    let actions = out.compactMap { if case .key(let a) = $0 { return a } else { return nil } }
    XCTAssertEqual(actions, [.dot(5), .dot(1), .dot(9), .dot(7), .removeLast, .submit, .clear])
  }
}
