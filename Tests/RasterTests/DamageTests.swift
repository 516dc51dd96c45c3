import AllocationCounter
import PatternCore
import XCTest

@testable import Raster

final class DamageTests: XCTestCase {
  func testOverlappingAndTouchingRectsMerge() {
    var list = DamageList()
    list.add(Rect(x: 0, y: 0, width: 10, height: 10))
    list.add(Rect(x: 50, y: 50, width: 5, height: 5))
    XCTAssertEqual(list.count, 2)
    list.add(Rect(x: 10, y: 2, width: 5, height: 3))  // touches the first
    XCTAssertEqual(list.count, 2)
    XCTAssertTrue(list.contains(Rect(x: 0, y: 0, width: 15, height: 10)))
    list.add(Rect(x: 12, y: 8, width: 40, height: 44))  // bridges both
    XCTAssertEqual(Array(list), [Rect(x: 0, y: 0, width: 55, height: 55)])
    list.add(.empty)
    XCTAssertEqual(list.count, 1)
  }

  func testFullListMergesIntoTheCheapestEntryAndCoversEverything() {
    var list = DamageList()
    var added: [Rect] = []
    for i in 0..<(DamageList.capacity + 5) {
      let r = Rect(x: (i % 6) * 20, y: (i / 6) * 20, width: 3, height: 3)
      added.append(r)
      list.add(r)
    }
    XCTAssertLessThanOrEqual(list.count, DamageList.capacity)
    for r in added {
      XCTAssertTrue(list.contains { $0.intersection(r) == r }, "\(r) lost")
    }
    for i in list.indices {
      for j in list.indices where j > i { XCTAssertTrue(list[i].intersection(list[j]).isEmpty) }
    }
  }

  private func repairMatchesFullRedraw<S: PixelStorage>(_ format: S.Type) {
    let before = TestScene()
    var after = TestScene()
    after.trail.append(Point(40.6, 52.3))
    after.ringColor = Color(255, 90, 10, 220)
    after.dotCenter = Point(33.1, 25.9)
    let rasterizer = Rasterizer(maximumWidth: 64)

    var repaired = TestBuffer(width: 64, height: 60, bytesPerPixel: S.bytesPerPixel)
    repaired.draw(S.self, rasterizer) { before.draw(on: $0, clip: $0.bounds) }
    let damage = after.damage(comparedWith: before)
    XCTAssertGreaterThan(damage.count, 0)
    let previous = repaired.bytes
    repaired.draw(S.self, rasterizer) { canvas in
      for rect in damage { after.draw(on: canvas, clip: rect) }
    }
    XCTAssertNotEqual(repaired.bytes, previous, "the damage redraw should change the frame")

    var full = TestBuffer(width: 64, height: 60, bytesPerPixel: S.bytesPerPixel)
    full.draw(S.self, rasterizer) { after.draw(on: $0, clip: $0.bounds) }
    XCTAssertEqual(repaired.bytes, full.bytes, "\(S.format.name): repairing the damage differs from a full redraw")
  }

  func testRedrawingOnlyTheDamageEqualsAFullRedrawXRGB8888() { repairMatchesFullRedraw(XRGB8888.self) }
  func testRedrawingOnlyTheDamageEqualsAFullRedrawRGB565() { repairMatchesFullRedraw(RGB565.self) }

  func testDrawingAFrameAllocatesNothing() {
    let scene = TestScene()
    let rasterizer = Rasterizer(maximumWidth: 64)
    var buffer = TestBuffer(width: 64, height: 60, bytesPerPixel: 4)
    buffer.draw(XRGB8888.self, rasterizer) { canvas in
      do { let trail = scene.trail.span
        func frame() -> DamageList {
          canvas.fillVerticalGradient(canvas.bounds, top: .black, bottom: .white, clip: canvas.bounds)
          canvas.fillCircle(center: Point(30.4, 27.7), radius: Fixed16(6.3), color: .white, clip: canvas.bounds)
          canvas.strokeCircle(
            center: Point(20.7, 20.2), radius: Fixed16(11.4), strokeWidth: Fixed16(1.7), color: scene.ringColor,
            clip: canvas.bounds)
          canvas.strokePolyline(trail, width: Fixed16(5.2), color: Color(255, 255, 255, 140), clip: canvas.bounds)
          canvas.fill(Rect(x: 3, y: 3, width: 9, height: 9), color: Color(1, 2, 3, 90), clip: canvas.bounds)
          canvas.blitMask(TestScene.mask, width: 9, height: 7, stride: 9, x: 3, y: 48, color: .white, clip: canvas.bounds)
          var damage = DamageList()
          damage.add(ShapeBounds.polyline(trail, width: Fixed16(5.2)))
          damage.add(ShapeBounds.circle(center: Point(30.4, 27.7), radius: Fixed16(6.3)))
          return damage
        }
        _ = frame()  // start-up: the runtime fills its type-metadata caches once
        allocation_counter_start()
        let damage = frame()
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "drawing a frame allocated")
        XCTAssertEqual(damage.count, 1)
      }
    }
  }
}
