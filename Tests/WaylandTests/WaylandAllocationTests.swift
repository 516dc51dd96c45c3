import AllocationCounter
import PatternCore
import Scene
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

  func testTwoOutputsInputAndTheirStatesAllocateNothing() {
    let first = try! GridLayout(LayoutOptions(panelWidth: 1280, panelHeight: 720))
    let second = try! GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 600))
    let mapping = GridMapping(grid: second.gridRect, reference: first.gridRect)
    var input = SeatInput(surfaces: [
      SeatSurface(tag: 1, surfaceWidth: 640, surfaceHeight: 360, frameWidth: 1280, frameHeight: 720, transform: first.transform, grid: .identity(first.gridRect)),
      SeatSurface(tag: 2, surfaceWidth: 800, surfaceHeight: 600, frameWidth: 800, frameHeight: 600, transform: second.transform, grid: mapping),
    ])
    var events: [SeatEvent] = []
    for round in 0..<20 {
      let surface = UInt32(round % 2 + 1)
      events += [.pointerEnter(surface: surface, x: 0, y: 0), .pointerButton(timeMilliseconds: 0, button: 0x110, pressed: true)]
      for i in 0..<100 { events.append(.pointerMotion(timeMilliseconds: UInt32(i), x: Int32(i * 512), y: Int32(i * 256))) }
      events += [.pointerButton(timeMilliseconds: 0, button: 0x110, pressed: false), .pointerLeave(surface: surface)]
    }
    var state = LockScreenState(trail: DotSequence([1, 2, 3]), finger: Point(x: 10, y: 10), prompt: .drawPattern)
    var owners: UInt64 = 0
    for event in events { input.translate(event, at: 0) { _ in } }
    let allocations = events.withUnsafeBufferPointer { buffer in
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        input.translate(buffer[i], at: UInt64(i)) { event in
          if case .touch(let touch) = event { state.finger = touch.position }
        }
        let owned = state.shown(ownsGesture: input.owner == 2, grid: mapping)
        let beside = state.shown(ownsGesture: false, grid: .identity(first.gridRect))
        owners &+= UInt64(input.owner) &+ UInt64(owned.trail.count) &+ UInt64(beside.trail.count)
        i += 1
      }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "the per-event path allocated")
    XCTAssertGreaterThan(owners, 0)
  }

  /// A moving grid: each verdict's clearing moves every output's mapping and the
  /// seat's (`grid-motion`), between events that are translated on the moved grid;
  /// none of it allocates.
  func testMovingTheGridOnTwoOutputsAllocatesNothing() {
    let first = try! GridLayout(LayoutOptions(panelWidth: 1280, panelHeight: 720))
    let second = try! GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 600))
    let home = GridMapping(grid: second.gridRect, reference: first.gridRect)
    var input = SeatInput(surfaces: [
      SeatSurface(tag: 1, surfaceWidth: 640, surfaceHeight: 360, frameWidth: 1280, frameHeight: 720, transform: first.transform, grid: .identity(first.gridRect)),
      SeatSurface(tag: 2, surfaceWidth: 800, surfaceHeight: 600, frameWidth: 800, frameHeight: 600, transform: second.transform, grid: home),
    ])
    let placements = (0..<40).map { GridPlacement(shiftX: $0 % 33 - 16, shiftY: 16 - $0 % 33, quarterTurns: $0 % 4) }
    var events: [SeatEvent] = [.pointerEnter(surface: 2, x: 0, y: 0)]
    for i in 0..<40 {
      events += [.pointerButton(timeMilliseconds: 0, button: 0x110, pressed: true), .pointerMotion(timeMilliseconds: UInt32(i), x: Int32(i * 2048), y: Int32(i * 1024))]
      events.append(.pointerButton(timeMilliseconds: 0, button: 0x110, pressed: false))
    }
    var state = LockScreenState(trail: DotSequence([1, 2, 3]), finger: Point(x: 10, y: 10), prompt: .drawPattern)
    var sum: Int64 = 0
    func step(_ i: Int, _ event: SeatEvent) {
      let placement = placements[i % placements.count]
      let mapping = home.placed(at: placement, layout: second, reference: first)
      input.moveGrid(of: 2, to: mapping)
      input.moveGrid(of: 1, to: GridMapping.identity(first.gridRect).placed(at: placement, layout: first, reference: first))
      state.grid = placement
      input.translate(event, at: UInt64(i)) { event in
        if case .touch(let touch) = event { state.finger = touch.position }
      }
      let owned = state.shown(ownsGesture: true, grid: mapping)
      sum &+= Int64(owned.finger?.x.raw ?? 0)
    }
    for (i, event) in events.enumerated() { step(i, event) }
    let allocations = events.withUnsafeBufferPointer { buffer in
      allocation_counter_start()
      var i = 0
      while i < buffer.count {
        step(i, buffer[i])
        i += 1
      }
      return allocation_counter_stop()
    }
    XCTAssertEqual(allocations, 0, "moving the grid allocated")
    XCTAssertNotEqual(sum, 0)
  }
}
