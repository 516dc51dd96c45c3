import PatternCore
import Scene
import ScreenTestSupport
import XCTest

/// `RecordedPlayback` with a judge, what `replay --state-dir` draws: lockouts that refuse
/// input and count down on the recording's clock, and an unlock that ends the play,
/// with the timing `run`'s event loop has.
final class RecordedPlaybackJudgementTests: XCTestCase {
  private let idle = PromptText("Draw your unlock pattern")

  /// `two-gestures`: 1-5-9 from its first event, then 3-2-1-4-7 after a pause.
  private func harness() throws -> SceneHarness { try SceneHarness(capture: "two-gestures", font: false) }

  func testLockoutAtTheStartCountsDownEachSecondAndRefusesTheGestureUnderIt() throws {
    let h = try harness()
    let start = h.events[0].timeMicroseconds
    // 1-5-9 is drawn within the first second, 3-2-1-4-7 begins after it.
    var timeline: [(LockScreenState, UInt64)] = []
    var judged: [DotSequence] = []
    var refused: [DotSequence] = []
    var refusedBy: [Lockout] = []
    TestPlayback.play(h.events, layout: h.layout, lockoutAtStart: .seconds(1), decide: { outcome in
      judged.append(outcome.dots)
      return LockScreenController.Judgement(verdict: .rejected(PromptText("Wrong pattern")))
    }, refused: { outcome, lockout in
      refused.append(outcome.dots)
      refusedBy.append(lockout)
    }) { timeline.append(($0, $1)) }

    let countdown = timeline.prefix(2).map { ($0.0.prompt.string, $0.0.appearance, $0.1 - start) }
    XCTAssertEqual(countdown.map(\.0), ["Try again in 0:01", "Draw your unlock pattern"])
    XCTAssertEqual(countdown.map(\.2), [0, 1_000_000], "the lockout ends on the recording's clock")
    XCTAssertEqual(countdown.map(\.1), [.wrong, .entry])
    XCTAssertEqual(timeline[0].0.trail, DotSequence(), "the finger under the lockout draws nothing")
    XCTAssertEqual(timeline[1].0.trail, DotSequence())
    XCTAssertEqual(judged, [DotSequence([3, 2, 1, 4, 7])], "1-5-9 was begun during the lockout: never judged")
    XCTAssertEqual(refused, [DotSequence([1, 5, 9])], "the refused gesture is still named, for replay's locked-out line")
    XCTAssertEqual(refusedBy, [.seconds(1)], "what the countdown showed when the refused gesture ended")
  }

  func testLockoutFromAJudgementFollowsTheVerdictAndIsNotPlayedPastTheRecording() throws {
    let h = try harness()
    var timeline: [(LockScreenState, UInt64)] = []
    var verdictTime: UInt64?
    TestPlayback.play(h.events, layout: h.layout, decide: { outcome in
      verdictTime = outcome.timeMicroseconds
      return LockScreenController.Judgement(
        verdict: .rejected(PromptText("Wrong pattern")), lockout: .seconds(30))
    }) { timeline.append(($0, $1)) }

    let lift = try XCTUnwrap(verdictTime)
    XCTAssertEqual(timeline.filter { $0.1 == lift }.last?.0.prompt.string, "Wrong pattern", "the verdict comes first")
    let after = timeline.filter { $0.1 > lift }
    let last = try XCTUnwrap(h.events.last).timeMicroseconds
    // The verdict's half second, then one tick a second while the recording lasts.
    var expected: [(String, UInt64)] = [("Try again in 0:30", lift + 500_000)]
    var tick = lift + 1_000_000
    while tick <= last {
      expected.append(("Try again in 0:" + String(format: "%02d", 30 - Int((tick - lift) / 1_000_000)), tick))
      tick += 1_000_000
    }
    XCTAssertGreaterThanOrEqual(expected.count, 2, "the capture should run on past the first tick")
    XCTAssertEqual(after.map(\.0.prompt.string), expected.map(\.0))
    XCTAssertEqual(after.map(\.1), expected.map(\.1))
    XCTAssertTrue(after.allSatisfy { $0.0.trail.isEmpty && $0.0.appearance == .wrong })
  }

  func testUnlockEndsThePlayOnceItsVerdictHasBeenShown() throws {
    let h = try harness()
    var timeline: [LockScreenState] = []
    var judged = 0
    TestPlayback.play(h.events, layout: h.layout, decide: { outcome in
      judged += 1
      return LockScreenController.Judgement(verdict: .accepted(PromptText("Unlocked")), unlocks: true)
    }) { state, _ in timeline.append(state) }

    XCTAssertEqual(judged, 1, "nothing after the unlock is taken")
    XCTAssertEqual(timeline.last?.appearance, .success, "the unlocked picture is the last one: the lock ends there")
    XCTAssertEqual(timeline.last?.trail, DotSequence([1, 5, 9]))
    XCTAssertEqual(timeline.filter { $0.appearance == .success }.count, 1)
  }

  func testPermanentLockShowsOneUnchangingPictureAndTakesNothing() throws {
    let h = try harness()
    var timeline: [LockScreenState] = []
    var refused: [DotSequence] = []
    TestPlayback.play(h.events, layout: h.layout, lockoutAtStart: .permanent, decide: { _ in
      XCTFail("no gesture may be judged under a permanent lock")
      return LockScreenController.Judgement(verdict: .rejected(self.idle))
    }, refused: { outcome, lockout in
      XCTAssertEqual(lockout, .permanent)
      refused.append(outcome.dots)
    }) { state, _ in timeline.append(state) }
    XCTAssertEqual(timeline.map(\.prompt.string), ["Locked: ask an administrator"])
    XCTAssertEqual(refused, [DotSequence([1, 5, 9]), DotSequence([3, 2, 1, 4, 7])])
  }
}
