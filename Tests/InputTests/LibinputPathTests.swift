import Foundation
import PatternCore
import XCTest

@testable import Input

/// libinput end to end on this machine: a uinput touchscreen read through a libinput
/// *path* context, so no udev seat or display is needed — only /dev/uinput.
final class LibinputPathTests: XCTestCase {
  func testUinputTouchscreenArrivesAsViewPixelTouches() throws {
    guard FileManager.default.isWritableFile(atPath: "/dev/uinput") else {
      throw XCTSkip("/dev/uinput is missing or not writable here (no uinput module in this sandbox; 'modprobe uinput' as root enables the test)")
    }
    // A single-touch screen, axes 0..799 x 0..479 (one unit per panel pixel).
    let description = VirtualDeviceDescription(
      name: "patternlock test touchscreen",
      codes: [1: [0x14a], 3: [0, 1]],
      axes: [.init(code: 0, minimum: 0, maximum: 799), .init(code: 1, minimum: 0, maximum: 479)],
      properties: [1])
    let device = try VirtualDevice(description)
    var node: String?
    for _ in 0..<50 where node == nil {
      node = device.eventNode()
      if node == nil { usleep(20_000) }
    }
    let path = try XCTUnwrap(node, "uinput device has no event node")
    for _ in 0..<50 where !FileManager.default.fileExists(atPath: path) { usleep(20_000) }

    let transform = ViewTransform(rotation: .clockwise90, panelWidth: 800, panelHeight: 480)
    var context = try InputContext(devicePaths: [path], transform: transform)
    var events: [InputEvent] = []
    try context.drain { events.append($0) }
    XCTAssertTrue(events.contains { if case .deviceAdded = $0 { return true } else { return false } })

    try device.emit(type: 3, code: 0, value: 200)
    try device.emit(type: 3, code: 1, value: 100)
    try device.emit(type: 1, code: 0x14a, value: 1)
    try device.emit(type: 0, code: 0, value: 0)
    try device.emit(type: 1, code: 0x14a, value: 0)
    try device.emit(type: 0, code: 0, value: 0)
    var touches: [TouchEvent] = []
    for _ in 0..<50 where touches.filter({ $0.kind == .up }).isEmpty {
      usleep(20_000)
      try context.drain { if case .touch(let t) = $0 { touches.append(t) } }
    }
    let down = try XCTUnwrap(touches.first { $0.kind == .down })
    // Panel (200, 100) seen through a 90° view turn.
    let expected = transform.viewPoint(fromPanel: Point(x: 200, y: 100))
    XCTAssertLessThanOrEqual(abs(down.position.x.raw - expected.x.raw), 1 << 16)
    XCTAssertLessThanOrEqual(abs(down.position.y.raw - expected.y.raw), 1 << 16)
    XCTAssertTrue(touches.contains { $0.kind == .up })
    XCTAssertTrue(touches.contains { $0.kind == .frame })
  }
}
