import AllocationCounter
import CShim
import CommandTestSupport
import Foundation
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import XCTest

@testable import FBDev
@testable import LockProgram

/// The fbdev back-end without a device: the layouts it takes and refuses, and the
/// damage-only writes into mapped memory (a file standing in for the device's memory).
final class FBDevDisplayTests: XCTestCase {
  private func info(bits: UInt32, _ r: (UInt32, UInt32), _ g: (UInt32, UInt32), _ b: (UInt32, UInt32)) -> pl_fb_info {
    var info = pl_fb_info()
    info.bits_per_pixel = bits
    (info.red_offset, info.red_length) = r
    (info.green_offset, info.green_length) = g
    (info.blue_offset, info.blue_length) = b
    info.type = UInt32(PL_FB_TYPE_PACKED_PIXELS)
    info.visual = UInt32(PL_FB_VISUAL_TRUECOLOR)
    return info
  }

  func testLayoutsAreRGB565OrXRGB8888OrRefused() {
    XCTAssertEqual(FBDevLayout.format(of: info(bits: 16, (11, 5), (5, 6), (0, 5))), .rgb565)
    XCTAssertEqual(FBDevLayout.format(of: info(bits: 32, (16, 8), (8, 8), (0, 8))), .xrgb8888)
    // BGR565 (some fbtft panels), RGB555, 24-bit packed, BGRX.
    XCTAssertNil(FBDevLayout.format(of: info(bits: 16, (0, 5), (5, 6), (11, 5))))
    XCTAssertNil(FBDevLayout.format(of: info(bits: 16, (10, 5), (5, 5), (0, 5))))
    XCTAssertNil(FBDevLayout.format(of: info(bits: 24, (16, 8), (8, 8), (0, 8))))
    XCTAssertNil(FBDevLayout.format(of: info(bits: 32, (8, 8), (16, 8), (24, 8))))
    var palette = info(bits: 16, (11, 5), (5, 6), (0, 5))
    palette.visual = 3  // FB_VISUAL_PSEUDOCOLOR
    XCTAssertNil(FBDevLayout.format(of: palette))
    XCTAssertEqual(FBDevLayout.describe(info(bits: 16, (0, 5), (5, 6), (11, 5))), "16 bits, red 0/5, green 5/6, blue 11/5")
  }

  func testDevicePathsChooseTheBackEnd() {
    XCTAssertTrue(FBDevLayout.isFramebufferPath("/dev/fb1"))
    XCTAssertTrue(FBDevLayout.isFramebufferPath("/dev/fb/0"))
    XCTAssertFalse(FBDevLayout.isFramebufferPath("/dev/dri/card0"))
  }

  func testNonFramebufferDevicesAreRefusedWithWhatToDo() throws {
    func openingError(_ path: String) -> FBDevError? {
      do throws(FBDevError) {
        _ = try FBDevLayout.open(path)
        return nil
      } catch {
        return error
      }
    }
    XCTAssertEqual(openingError("/dev/null"), .notFramebuffer(path: "/dev/null"))
    let missing = "/dev/fb-none-such"
    XCTAssertEqual(openingError(missing), .noDevice(path: missing))
    XCTAssertFalse(FBDevLayout.exists(missing))
    XCTAssertTrue(FBDevError.unsupportedLayout(path: "/dev/fb1", layout: "24 bits").message.contains("fbset -depth 16"))
  }

  /// A 40x20 RGB565 "device" with rows padded to 96 bytes, shown at y offset 3: only the
  /// damaged rectangle is written, where the visible frame starts, and never anything else.
  func testShowWritesOnlyTheDamageAtTheVisibleOffsetAndAllocatesNothing() throws {
    let (width, height, line, yOffset) = (40, 20, 96, 3)
    let path = try makeTemporaryDirectory(prefix: "fbdev").appendingPathComponent("fb").path
    let length = line * (height + yOffset)
    FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xEE, count: length))
    let file = try FileDescriptor.open(path, .readWrite)
    var fake = info(bits: 16, (11, 5), (5, 6), (0, 5))
    (fake.xres, fake.yres, fake.yoffset) = (UInt32(width), UInt32(height), UInt32(yOffset))
    (fake.line_length, fake.smem_len) = (UInt32(line), UInt32(length))
    var display = try FBDevDisplay<RGB565>(FBDevLayout.Opened(path: path, file: file, info: fake))
    XCTAssertEqual(display.width, width)
    let frame = [UInt8](repeating: 0x11, count: width * height * 2)
    let damage = Rect(x: 5, y: 2, width: 10, height: 4)
    _ = try display.show(frame, damage: damage)  // warm-up
    allocation_counter_start()
    let shown = try display.show(frame, damage: damage)
    XCTAssertEqual(allocation_counter_stop(), 0, "show allocated")
    XCTAssertTrue(shown)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    for y in 0..<(height + yOffset) {
      for x in 0..<(line / 2) {
        let inside = y - yOffset >= damage.y && y - yOffset < damage.maxY && x >= damage.x && x < damage.x + damage.width
        let at = y * line + x * 2
        XCTAssertEqual(bytes[at], inside ? 0x11 : 0xEE, "byte of pixel (\(x), \(y))")
      }
    }
  }
}
