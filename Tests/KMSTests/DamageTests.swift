import PatternCore
import Raster
import XCTest

@testable import KMS

final class DamageTests: XCTestCase {
  static let sentinel: UInt8 = 0xA5

  /// A shadow frame whose every byte differs from the sentinel and from its neighbours.
  func shadow(width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
    (0..<(width * height * bytesPerPixel)).map { UInt8(truncatingIfNeeded: $0 % 251) == Self.sentinel ? 1 : UInt8(truncatingIfNeeded: $0 % 251) }
  }

  func testOnlyDamagedRowsAndColumnsAreWrittenWithAPaddedPitch() {
    let (w, h, bpp) = (40, 30, 4)
    let pitch = w * bpp + 64  // drivers pad rows
    let source = shadow(width: w, height: h, bytesPerPixel: bpp)
    var mapped = [UInt8](repeating: Self.sentinel, count: pitch * h)
    let damage = Rect(x: 5, y: 7, width: 10, height: 4)
    let written = source.withUnsafeBytes { s in
      mapped.withUnsafeMutableBytes { d in
        DamageCopy.copy(from: s, sourceStride: w * bpp, to: d, destinationStride: pitch, width: w, height: h, bytesPerPixel: bpp, damage: damage)
      }
    }
    XCTAssertEqual(written, 10 * 4 * bpp)
    for y in 0..<h {
      for x in 0..<(pitch) {
        let inside = y >= 7 && y < 11 && x >= 5 * bpp && x < 15 * bpp
        let byte = mapped[y * pitch + x]
        if inside {
          XCTAssertEqual(byte, source[y * w * bpp + x], "row \(y) byte \(x) not copied")
        } else {
          XCTAssertEqual(byte, Self.sentinel, "row \(y) byte \(x) outside the damage was written")
        }
      }
    }
  }

  func testDamageIsClippedToTheFrame() {
    let (w, h, bpp) = (16, 8, 2)
    let source = shadow(width: w, height: h, bytesPerPixel: bpp)
    var mapped = [UInt8](repeating: Self.sentinel, count: w * h * bpp)
    let written = source.withUnsafeBytes { s in
      mapped.withUnsafeMutableBytes { d in
        DamageCopy.copy(from: s, sourceStride: w * bpp, to: d, destinationStride: w * bpp, width: w, height: h, bytesPerPixel: bpp,
                        damage: Rect(x: 12, y: -3, width: 100, height: 5))
      }
    }
    XCTAssertEqual(written, 4 * 2 * bpp)
    for y in 0..<h {
      for x in 0..<w {
        let copied = y < 2 && x >= 12
        for b in 0..<bpp {
          let i = (y * w + x) * bpp + b
          XCTAssertEqual(mapped[i], copied ? source[i] : Self.sentinel, "pixel \(x),\(y)")
        }
      }
    }
  }

  func testEmptyDamageWritesNothing() {
    let source = shadow(width: 4, height: 4, bytesPerPixel: 4)
    var mapped = [UInt8](repeating: Self.sentinel, count: 64)
    let written = source.withUnsafeBytes { s in
      mapped.withUnsafeMutableBytes { d in
        DamageCopy.copy(from: s, sourceStride: 16, to: d, destinationStride: 16, width: 4, height: 4, bytesPerPixel: 4, damage: .empty)
      }
    }
    XCTAssertEqual(written, 0)
    XCTAssertEqual(mapped, [UInt8](repeating: Self.sentinel, count: 64))
  }

  func testBackBufferAlsoGetsThePreviousFramesDamage() {
    var tracker = DamageTracker(width: 100, height: 50)
    let full = Rect(x: 0, y: 0, width: 100, height: 50)
    // The first frame fills each buffer completely.
    XCTAssertEqual(tracker.take(Rect(x: 1, y: 1, width: 2, height: 2), for: 1), full)
    XCTAssertEqual(tracker.take(.empty, for: 0), full)
    // Frame A goes to buffer 1; frame B to buffer 0, which missed A.
    let a = Rect(x: 10, y: 10, width: 5, height: 5)
    let b = Rect(x: 40, y: 20, width: 5, height: 5)
    XCTAssertEqual(tracker.take(a, for: 1), a)
    XCTAssertEqual(tracker.take(b, for: 0), a.union(b))
    XCTAssertEqual(tracker.take(.empty, for: 1), b)
    XCTAssertEqual(tracker.take(.empty, for: 0), .empty)
    tracker.invalidate()
    XCTAssertEqual(tracker.take(.empty, for: 0), full)
  }

  /// Switching the output on copies the whole frame into the buffer on screen; the
  /// other buffer missed everything drawn while the output was off.
  func testWholeFrameWriteLeavesOnlyTheOtherBufferStale() {
    let full = Rect(x: 0, y: 0, width: 100, height: 50)
    for written in 0...1 {
      var tracker = DamageTracker(width: 100, height: 50)
      _ = tracker.take(.empty, for: 0)
      _ = tracker.take(.empty, for: 1)
      tracker.wroteWholeFrame(into: written)
      XCTAssertEqual(tracker.take(.empty, for: 1 - written), full, "buffer \(1 - written) after a whole frame into \(written)")
      XCTAssertEqual(tracker.take(.empty, for: written), .empty, "buffer \(written) is up to date")
      let next = Rect(x: 3, y: 4, width: 5, height: 6)
      XCTAssertEqual(tracker.take(next, for: written), next)
    }
  }
}
