import AllocationCounter
import Screen
import XCTest

/// The input-to-flip figures the lock says once an attempt: nearest-rank percentiles
/// over the latest flips, one line, nothing allocated.
final class FlipLatencyTests: XCTestCase {
  private func line(_ latency: inout FlipLatency) -> String? {
    latency.withLine { String(decoding: $0, as: UTF8.self) }
  }

  func testNothingIsSaidBeforeTheFirstFlip() {
    var latency = FlipLatency()
    XCTAssertNil(latency.percentiles())
    XCTAssertNil(line(&latency))
  }

  func testTheMedianAndThe99thPercentileByNearestRank() throws {
    var latency = FlipLatency()
    // 1 to 100 ms, shuffled: the median is 50 ms, the 99th percentile 99 ms.
    for value in (1...100).map({ ($0 * 37) % 101 }) { latency.record(microseconds: UInt64(value) * 1000) }
    let (median, p99) = try XCTUnwrap(latency.percentiles())
    XCTAssertEqual(median, 50_000)
    XCTAssertEqual(p99, 99_000)
    XCTAssertEqual(line(&latency), "patternlock: input to flip: median 50.0 ms, p99 99.0 ms over the last 100 flips\n")
  }

  func testOnlyTheLatestFlipsCount() throws {
    var latency = FlipLatency()
    for _ in 0..<1000 { latency.record(microseconds: 90_000) }
    for _ in 0..<FlipLatency.capacity { latency.record(microseconds: 16_650) }
    XCTAssertEqual(latency.count, FlipLatency.capacity)
    XCTAssertEqual(line(&latency), "patternlock: input to flip: median 16.7 ms, p99 16.7 ms over the last 256 flips\n")
  }

  func testOneFlipAndLargeFigures() {
    var latency = FlipLatency()
    latency.record(microseconds: 1_234_567)
    XCTAssertEqual(line(&latency), "patternlock: input to flip: median 1234.6 ms, p99 1234.6 ms over the last 1 flip\n")
    latency.record(microseconds: UInt64.max)
    XCTAssertEqual(latency.percentiles()?.p99, UInt32.max, "clamped, never a trap")
  }

  func testRecordingAndSayingAllocateNothing() {
    var latency = FlipLatency()
    for i in 0..<300 { latency.record(microseconds: UInt64(i * 97 % 40_000)) }
    _ = latency.withLine { $0.count }
    allocation_counter_start()
    for i in 0..<600 { latency.record(microseconds: UInt64(i * 13 % 50_000)) }
    let written = latency.withLine { $0.count } ?? 0
    let allocations = allocation_counter_stop()
    XCTAssertGreaterThan(written, 0)
    XCTAssertEqual(allocations, 0)
  }
}
