import CWaylandShim
@testable import Wayland
import XCTest

/// The C listeners' ring records as the seat's events, and the ring's own order.
final class EventRingTests: XCTestCase {
  func record(_ kind: plw_event_kind, tag: UInt32 = 0, time: UInt32 = 0, a: Int32 = 0, b: Int32 = 0, x: Int32 = 0, y: Int32 = 0) -> plw_event {
    plw_event(kind: kind.rawValue, tag: tag, serial: 0, time: time, a: a, b: b, x: x, y: y)
  }

  func testRecordsComeOutInOrder() {
    var event = plw_event()
    while plw_next_event(&event) != 0 {}
    plw_push(record(PLW_LOCKED))
    plw_push(record(PLW_FINISHED))
    XCTAssertEqual(plw_next_event(&event), 1)
    XCTAssertEqual(event.kind, PLW_LOCKED.rawValue)
    XCTAssertEqual(plw_next_event(&event), 1)
    XCTAssertEqual(event.kind, PLW_FINISHED.rawValue)
    XCTAssertEqual(plw_next_event(&event), 0)
  }

  func testAFullRingSaysItLostEvents() {
    var event = plw_event()
    while plw_next_event(&event) != 0 {}
    _ = plw_take_overflow()
    for _ in 0..<PLW_RING_CAPACITY + 1 { plw_push(record(PLW_TOUCH_FRAME)) }
    XCTAssertEqual(plw_take_overflow(), 1)
    XCTAssertEqual(plw_take_overflow(), 0)
    var count = 0
    while plw_next_event(&event) != 0 { count += 1 }
    XCTAssertEqual(count, PLW_RING_CAPACITY)
  }

  func testSeatRecordsDecode() {
    XCTAssertEqual(
      SessionLockConnection.seatEvent(record(PLW_TOUCH_DOWN, tag: 4, time: 9, a: 2, x: 256, y: 512)),
      .touchDown(surface: 4, id: 2, timeMilliseconds: 9, x: 256, y: 512))
    XCTAssertEqual(
      SessionLockConnection.seatEvent(record(PLW_POINTER_BUTTON, time: 3, a: 0x110, b: 1)),
      .pointerButton(timeMilliseconds: 3, button: 0x110, pressed: true))
    XCTAssertEqual(SessionLockConnection.seatEvent(record(PLW_KEY_PRESSED, a: 0xff0d, b: 28)), .key(keysym: 0xff0d, evdevCode: 28))
    XCTAssertNil(SessionLockConnection.seatEvent(record(PLW_CONFIGURE)), "not the seat's")
  }
}
