import AllocationCounter
import PatternCore
import Wayland
import XCTest

/// The per-event and per-frame bookkeeping of the session lock allocates nothing.
final class WaylandAllocationTests: XCTestCase {
  func testTranslatingSeatEventsAllocatesNothing() {
    var input = SeatInput(
      drawingSurface: 1, surfaceWidth: 640, surfaceHeight: 360, frameWidth: 1280, frameHeight: 720,
      transform: ViewTransform(rotation: .none, panelWidth: 1280, panelHeight: 720))
    var events: [SeatEvent] = [.pointerEnter(surface: 1, x: 0, y: 0), .pointerButton(timeMilliseconds: 0, button: 0x110, pressed: true)]
    for i in 0..<2000 { events.append(.pointerMotion(timeMilliseconds: UInt32(i), x: Int32(i * 64), y: Int32(i * 32))) }
    events += [.pointerButton(timeMilliseconds: 3000, button: 0x110, pressed: false), .key(keysym: 0x35, evdevCode: 6)]
    var handled = 0
    // Warm up: the runtime instantiates type metadata lazily on first use.
    for event in events { input.translate(event, at: 0) { _ in handled += 1 } }
    handled = 0
    let allocations = events.withUnsafeBufferPointer { buffer in
      // A pointer loop: in debug builds `for in` over an Array allocates by itself.
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        input.translate(buffer[i], at: UInt64(i)) { _ in handled += 1 }
        i += 1
      }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "the per-event path allocated")
    XCTAssertGreaterThan(handled, 4000)
  }

  func testChoosingAndDamagingBuffersAllocatesNothing() {
    var damage = BufferDamage(count: 2, full: Rect(x: 0, y: 0, width: 1280, height: 720))
    _ = damage.draw(into: 0, damage: .empty)
    damage.release(0)
    allocation_counter_start()
    var i = 0
    while i < 1000 {
      if let index = damage.free {
        _ = damage.draw(into: index, damage: Rect(x: i % 100, y: i % 50, width: 10, height: 10))
        damage.release(index)
      }
      i += 1
    }
    let allocations = allocation_counter_stop()
    XCTAssertEqual(allocations, 0, "the per-frame path allocated")
  }
}
