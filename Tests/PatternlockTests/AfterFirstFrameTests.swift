import CommandTestSupport
import Foundation
import Glibc
import PatternCore
import Raster
import Recording
import Scene
import Screen
import ScreenTestSupport
import SystemCalls
import XCTest

@testable import LockProgram

/// What the lock leaves until its first frame is shown (`EventLoop.afterFirstFrame`:
/// the rest of the glyphs) runs once that frame is shown and before the loop waits: on
/// a display that shows at once (fbdev, here memory) as on one whose flip completes later.
final class AfterFirstFrameTests: XCTestCase {
  /// Events behind a non-blocking pipe that is empty until the work after the first
  /// frame has run.
  // Unchecked: the watchdog thread below only reads whether the input started, 20 s
  // after the loop began.
  final class Feed: @unchecked Sendable {
    let read: Int32, write: Int32
    let events: [TouchEvent]
    var next = 0
    /// How many frames the display had shown when the work after the first frame ran,
    /// each time it ran.
    var framesAtStart: [Int] = []
    /// Set when that work never ran and the test gave the input its events itself.
    var gaveUp = false
    /// The display's frames so far (the test's display counts them here).
    var frames = 0

    init(_ events: [TouchEvent]) {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      precondition(fcntl(read, F_SETFL, O_NONBLOCK) == 0)
      self.events = events
    }

    func release() {
      var bytes = [UInt8](repeating: 1, count: events.count)
      precondition(Glibc.write(write, &bytes, bytes.count) == bytes.count)
    }

    deinit {
      close(read)
      close(write)
    }
  }

  struct HeldEvents: InputSource {
    struct Done: DescribedError { var message: String { "all events handed out" } }
    let feed: Feed
    var pollDescriptor: Int32 { feed.read }
    var nextEventTime: UInt64? { nil }

    mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(Done) {
      var byte: UInt8 = 0
      while Glibc.read(feed.read, &byte, 1) == 1 {
        guard feed.next < feed.events.count else { throw Done() }
        handle(.touch(feed.events[feed.next]))
        feed.next += 1
      }
    }
  }

  /// A memory display that tells the feed how many frames it has shown.
  struct CountingDisplay: PanelDisplay {
    typealias Failure = MemoryDisplay<XRGB8888>.Refused
    typealias Pixel = XRGB8888
    var inner: MemoryDisplay<XRGB8888>
    let feed: Feed
    var width: Int { inner.width }
    var height: Int { inner.height }
    var isFlipPending: Bool { false }
    var pollDescriptor: Int32 { -1 }
    var isOutputOff: Bool { inner.isOutputOff }
    var canSwitchOff: Bool { inner.canSwitchOff }
    mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
      feed.frames += 1
      return try inner.show(frame, damage: damage)
    }
    mutating func switchOff() throws(Failure) { try inner.switchOff() }
    mutating func switchOn(showing frame: [UInt8]) throws(Failure) { try inner.switchOn(showing: frame) }
    mutating func completeFlip() throws(Failure) -> UInt64? { nil }
  }

  func testTheWorkAfterTheFirstFrameRunsOnADisplayThatShowsAtOnce() throws {
    let layout = try GridLayout(LayoutOptions())
    let recording = try Recording(contentsOf: Captures.path("l-shape-1236"))
    let recorded = try recording.touchEvents(transform: layout.transform)
    let shift = MonotonicClock.microseconds() &- 1_000 &- recorded.last!.timeMicroseconds
    let feed = Feed(recorded.map { event in
      var event = event
      event.timeMicroseconds &+= shift
      return event
    })
    // Were that work never run, the loop would wait for ever: after 20 s the test hands
    // the events over itself, and fails.
    Thread.detachNewThread { [feed] in
      Thread.sleep(forTimeInterval: 20)
      guard feed.framesAtStart.isEmpty else { return }
      feed.gaveUp = true
      feed.release()
    }
    var loop = try EventLoop()
    loop.afterFirstFrame = { renderer in
      feed.framesAtStart.append(feed.frames)
      if feed.framesAtStart.count == 1 { feed.release() }
    }
    var input = HeldEvents(feed: feed)
    var display = CountingDisplay(inner: MemoryDisplay<XRGB8888>(width: 800, height: 480), feed: feed)
    var screen = LockScreen<XRGB8888>(testing: layout, .testing())
    var judge = LockScreenStepTests.QuietPatternJudge(DotSequence([1, 2, 3, 6]))
    let ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    XCTAssertFalse(feed.gaveUp, "the work after the first frame never ran: the loop waited")
    guard case .unlocked = ending else { return XCTFail("the recorded pattern did not unlock: \(ending)") }
    XCTAssertEqual(feed.framesAtStart, [1], "run once, as soon as the first frame was shown, not before it or later")
    XCTAssertGreaterThan(feed.frames, 1, "the unlock's frames followed")
  }
}
