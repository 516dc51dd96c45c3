import Foundation
import Glibc
import SystemCalls
import XCTest

/// The clocks and the boot they belong to.
final class ClockTests: XCTestCase {
  func testTheMonotonicClockIsTheKernelsInMicroseconds() {
    var libc = timespec()
    let before = MonotonicClock.microseconds()
    clock_gettime(CLOCK_MONOTONIC, &libc)
    let after = MonotonicClock.microseconds()
    let libcMicroseconds = UInt64(libc.tv_sec) * 1_000_000 + UInt64(libc.tv_nsec) / 1000
    XCTAssertLessThanOrEqual(before, after)
    XCTAssertLessThanOrEqual(before, libcMicroseconds + 1)
    XCTAssertLessThanOrEqual(libcMicroseconds, after + 1)
  }

  func testTheWallClockIsSecondsSince1970() {
    let seconds = WallClock.seconds()
    XCTAssertLessThanOrEqual(abs(seconds - Int64(Date().timeIntervalSince1970)), 2)
  }

  func testTheBootIDIsTheKernelsBigEndian() throws {
    let text = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
    let hex = text.filter { $0.isHexDigit }
    XCTAssertEqual(hex.count, 32)
    let boot = try BootID.current()
    XCTAssertEqual(boot.high, UInt64(hex.prefix(16), radix: 16))
    XCTAssertEqual(boot.low, UInt64(hex.suffix(16), radix: 16))
    XCTAssertEqual(try BootID.current(), boot, "one boot, one ID")
  }

  func testTheTimeNamespaceShiftIsWhatItsOffsetsSay() throws {
    let offsets = try? String(contentsOfFile: "/proc/self/timens_offsets", encoding: .utf8)
    let shifted: Bool
    if let offsets {
      // Lines like "monotonic 0 0": shifted when any number is not zero.
      let numbers = offsets.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int64($0) }
      shifted = numbers.isEmpty || numbers.contains { $0 != 0 }
    } else {
      shifted = false
    }
    XCTAssertEqual(try TimeNamespace.isShiftingThisProcess(), shifted)
  }
}
