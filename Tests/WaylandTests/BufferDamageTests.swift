import PatternCore
import Wayland
import XCTest

/// Two buffers: each frame goes into a released one, brought up to date with what it
/// missed.
final class BufferDamageTests: XCTestCase {
  let full = Rect(x: 0, y: 0, width: 100, height: 50)

  func testTheFirstFrameOfEachBufferIsWhole() {
    var damage = BufferDamage(count: 2, full: full)
    XCTAssertEqual(damage.free, 0)
    XCTAssertEqual(damage.draw(into: 0, damage: Rect(x: 1, y: 1, width: 2, height: 2)), full)
    XCTAssertEqual(damage.free, 1)
    XCTAssertEqual(damage.draw(into: 1, damage: Rect(x: 1, y: 1, width: 2, height: 2)), full)
    XCTAssertNil(damage.free, "both held by the compositor")
  }

  func testABufferCatchesUpWithTheFramesItMissed() {
    var damage = BufferDamage(count: 2, full: full)
    _ = damage.draw(into: 0, damage: full)
    _ = damage.draw(into: 1, damage: full)
    damage.release(0)
    let a = Rect(x: 10, y: 10, width: 5, height: 5)
    XCTAssertEqual(damage.draw(into: 0, damage: a), full, "buffer 0 missed the whole second frame")
    damage.release(1)
    let b = Rect(x: 40, y: 20, width: 5, height: 5)
    XCTAssertEqual(damage.draw(into: 1, damage: b), a.union(b), "buffer 1 missed frame a")
    damage.release(0)
    XCTAssertEqual(damage.draw(into: 0, damage: .empty), b, "nothing new, but b is missing")
  }

  func testReleasingAnUnknownBufferChangesNothing() {
    var damage = BufferDamage(count: 2, full: full)
    damage.release(7)
    XCTAssertEqual(damage.busy, [false, false])
  }
}
