import AllocationCounter
import CommandTestSupport
import Foundation
import Glibc
import PatternCore
import Raster
import Recording
import Scene
import Screen
import SystemCalls
import ScreenTestSupport
import XCTest

@testable import LockProgram

/// The product's loop itself (`EventLoop.run`: its poll set, signalfd and timerfd, the
/// lock mode's steps) over a memory display, fed a recorded pattern one event per wake
/// through a pipe: from the first events on, waking, draining, stepping and presenting
/// allocate nothing.
final class EventLoopAllocationTests: XCTestCase {
  /// The events to hand out, one per byte in the pipe, and what was counted.
  final class Feed {
    let read: Int32, write: Int32
    let events: [TouchEvent]
    var next = 0
    /// Counting starts at this event (the ones before warm the loop's paths).
    let countFrom: Int
    var allocations: Int64?

    /// - Parameter pauseAt: the events from this one on are handed out only after a
    ///   second (from another thread), once the verdict of the ones before has cleared.
    init(_ events: [TouchEvent], countFrom: Int, pauseAt: Int? = nil) {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      self.events = events
      self.countFrom = countFrom
      let now = pauseAt ?? events.count
      var bytes = [UInt8](repeating: 1, count: now)
      precondition(Glibc.write(write, &bytes, bytes.count) == bytes.count)
      guard now < events.count else { return }
      let (descriptor, later) = (write, events.count - now)
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 1)
        var bytes = [UInt8](repeating: 1, count: later)
        precondition(Glibc.write(descriptor, &bytes, bytes.count) == bytes.count)
      }
    }

    deinit {
      close(read)
      close(write)
    }
  }

  struct PipedEvents: InputSource {
    struct Done: DescribedError { var message: String { "all events handed out" } }
    let feed: Feed
    var pollDescriptor: Int32 { feed.read }
    var nextEventTime: UInt64? { nil }

    mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(Done) {
      var byte: UInt8 = 0
      guard Glibc.read(feed.read, &byte, 1) == 1 else { throw Done() }
      if feed.next == feed.countFrom { allocation_counter_start() }
      handle(.touch(feed.events[feed.next]))
      feed.next += 1
      if feed.next == feed.events.count { feed.allocations = allocation_counter_stop() }
    }
  }

  func testWakingDrainingAndPresentingAllocateNothing() throws {
    let layout = try GridLayout(LayoutOptions())
    let recording = try Recording(contentsOf: Captures.path("l-shape-1236"))
    try assertLoopAllocatesNothing(layout, events: try recording.touchEvents(transform: layout.transform), countFrom: 8)
  }

  /// A touch that joins one dot and lifts: too short to judge, it is answered with the
  /// prompt that names the fewest dots, and a try afterwards still unlocks.
  func testTooShortTryAllocatesNothing() throws {
    let layout = try GridLayout(LayoutOptions())
    let recording = try Recording(contentsOf: Captures.path("l-shape-1236"))
    let pattern = try recording.touchEvents(transform: layout.transform)
    let first = pattern[0]
    XCTAssertEqual(first.kind, .down)
    // A second before the pattern: down on its first dot and up again 100 ms later.
    var down = first
    down.timeMicroseconds = first.timeMicroseconds &- 1_000_000
    var up = down
    up.kind = .up
    up.timeMicroseconds &+= 100_000
    try assertLoopAllocatesNothing(layout, events: [down, up] + pattern, countFrom: 1, pauseAt: 2)
  }

  private func assertLoopAllocatesNothing(_ layout: GridLayout, events recorded: [TouchEvent], countFrom: Int, pauseAt: Int? = nil) throws {
    // On the loop's clock: the last event just before now, as if each had just come.
    let shift = MonotonicClock.microseconds() &- 1_000 &- recorded.last!.timeMicroseconds
    let events = recorded.map { event -> TouchEvent in
      var event = event
      event.timeMicroseconds &+= shift
      return event
    }
    var loop = try EventLoop()
    // Twice: the first run makes the runtime's metadata for the loop's specialisation.
    for round in 0..<2 {
      let feed = Feed(events, countFrom: countFrom, pauseAt: pauseAt)
      var input = PipedEvents(feed: feed)
      var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
      // Dimming and blanking set, so that each event moves their moments too.
      var screen = LockScreen<XRGB8888>(
        testing: layout, .testing(idleBlankMicroseconds: 120_000_000, dimAfterMicroseconds: 60_000_000))
      var judge = LockScreenStepTests.QuietPatternJudge(DotSequence([1, 2, 3, 6]))
      let ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
      guard case .unlocked = ending else { return XCTFail("round \(round): the recorded pattern did not unlock: \(ending)") }
      XCTAssertGreaterThan(display.presented, 20, "round \(round): too few frames to say anything")
      XCTAssertNotNil(feed.allocations, "round \(round): not every event was handed out")
      if round == 1 { XCTAssertEqual(feed.allocations, 0, "the loop's per-event path allocated") }
    }
  }
}
