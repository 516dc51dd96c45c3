import AllocationCounter
import Foundation
import SystemCalls
import XCTest

/// The poll set, the signalfd and the timerfd as the lock's loop uses them: what each
/// reports, and that a round of arming, waiting and reading allocates nothing (the
/// loop does it for every event and frame).
final class LoopDescriptorTests: XCTestCase {
  func testATimerFiresOnceAndIsReadyInThePollSet() throws {
    let timer = try TimerDescriptor()
    XCTAssertEqual(try timer.expirations(), 0, "an unarmed timer has not fired")
    var set = PollSet(capacity: 2)
    let never = set.add("none", descriptor: -1)
    let timed = set.add("timerfd", descriptor: timer.rawValue)
    XCTAssertEqual(set.names.map { "\($0)" }, ["none", "timerfd"])
    try timer.arm(microseconds: 1000)
    XCTAssertEqual(try set.wait(milliseconds: 1000), true)
    XCTAssertFalse(set.isReady(never))
    XCTAssertTrue(set.isReady(timed))
    XCTAssertEqual(set.nextReady(after: nil), timed)
    XCTAssertNil(set.nextReady(after: timed))
    XCTAssertEqual(try timer.expirations(), 1)
    XCTAssertEqual(try timer.expirations(), 0, "read once")
    try timer.arm(microseconds: 0)
    XCTAssertEqual(try set.wait(milliseconds: 20), false, "a disarmed timer never fires")
  }

  func testASignalIsReadOnceThroughTheDescriptor() throws {
    let signals = try SignalDescriptor()
    XCTAssertNil(try signals.next(), "nothing queued")
    var set = PollSet(capacity: 1)
    let signalled = set.add("signalfd", descriptor: signals.rawValue)
    // Blocked from the process's start (SIGUSR1) and by the descriptor: it waits there.
    raise(SIGUSR1)
    XCTAssertEqual(try set.wait(milliseconds: 1000), true)
    XCTAssertTrue(set.isReady(signalled))
    XCTAssertEqual(try signals.next(), .user1)
    XCTAssertNil(try signals.next())
  }

  func testArmingWaitingAndReadingAllocateNothing() throws {
    let timer = try TimerDescriptor()
    let signals = try SignalDescriptor()
    var set = PollSet(capacity: 2)
    let signalled = set.add("signalfd", descriptor: signals.rawValue)
    let timed = set.add("timerfd", descriptor: timer.rawValue)
    func round() throws(Errno) -> Int {
      try timer.arm(microseconds: 100)
      raise(SIGUSR2)
      var drained = 0
      while drained < 2 {
        guard try set.wait(milliseconds: 1000) == true else { continue }
        var ready = set.nextReady(after: nil)
        while let source = ready {
          if source == signalled, try signals.next() == .user2 { drained += 1 }
          if source == timed, try timer.expirations() > 0 { drained += 1 }
          ready = set.nextReady(after: source)
        }
      }
      return drained
    }
    XCTAssertEqual(try round(), 2)
    allocation_counter_start()
    for _ in 0..<50 { _ = try round() }
    XCTAssertEqual(allocation_counter_stop(), 0, "the loop's descriptors allocated")
  }
}
