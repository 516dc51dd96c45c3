import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// The live stepping rules on their own: nothing is presented and the lock does not end
/// while a flip is in flight, and the timer is armed for the screen's next change.
final class LiveStepRulesTests: XCTestCase {
  /// A memory display whose flips wait until `complete()`.
  struct SlowDisplay: PanelDisplay {
    var memory: MemoryDisplay<XRGB8888>
    var isFlipPending = false
    typealias Pixel = XRGB8888
    typealias Failure = MemoryDisplay<XRGB8888>.Refused
    var width: Int { memory.width }
    var height: Int { memory.height }
    var pollDescriptor: Int32 { -1 }
    var isOutputOff: Bool { memory.isOutputOff }
    var canSwitchOff: Bool { false }
    mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
      isFlipPending = try memory.show(frame, damage: damage)
      return isFlipPending
    }
    mutating func completeFlip() throws(Failure) -> UInt64? {
      isFlipPending = false
      return 0
    }
    mutating func switchOff() throws(Failure) { try memory.switchOff() }
    mutating func switchOn(showing frame: [UInt8]) throws(Failure) { try memory.switchOn(showing: frame) }
  }

  func testAFlipInFlightHoldsThePresentAndTheEnd() throws {
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(feedbackMicroseconds: 100))
    var display = SlowDisplay(memory: MemoryDisplay<XRGB8888>(width: 800, height: 480))
    var rules = LiveStepRules()
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    rules.start(screen, at: 0)
    XCTAssertNil(rules.takeTimerDelay(), "nothing changes by itself on a fresh screen without timeouts")
    XCTAssertTrue(rules.shouldPresent(screen, on: display))
    XCTAssertTrue(try screen.present(on: &display, at: 0).presented)
    for n in [1, 2, 3, 6] { rules.receive(.key(.dot(n)), at: 10, screen: &screen, judge: &judge) }
    XCTAssertNotNil(rules.receive(.key(.submit), at: 20, screen: &screen, judge: &judge))
    XCTAssertNil(rules.takeTimerDelay(), "the verdict's time starts with its first frame, not yet presented")
    XCTAssertFalse(rules.shouldPresent(screen, on: display), "a flip is in flight")
    rules.timerFired(at: 200, screen: &screen, judge: &judge)
    XCTAssertFalse(screen.isFinished, "a verdict never presented has not had its time")
    _ = try display.completeFlip()
    XCTAssertTrue(rules.shouldPresent(screen, on: display))
    XCTAssertTrue(try screen.present(on: &display, at: 210).presented)
    rules.presented(screen, at: 210)
    XCTAssertEqual(rules.takeTimerDelay(), 100, "armed for the verdict's end, counted from its frame")
    XCTAssertNil(rules.takeTimerDelay(), "taken once")
    rules.timerFired(at: 310, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isFinished)
    XCTAssertNil(rules.ending(of: screen, on: display), "the unlocked picture's flip has not completed")
    _ = try display.completeFlip()
    XCTAssertEqual(rules.ending(of: screen, on: display), .unlocked)
  }

  /// A judge that takes `cost` of the test's clock, as Argon2id on a slow board or a
  /// TPM round trip does: the clock has moved on when its verdict comes back.
  struct SlowJudge: PatternJudge {
    var inner: MatchJudge
    let clock: TestClock
    let cost: UInt64
    mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
      clock.now += cost
      return inner.judge(outcome, at: now)
    }
  }

  final class TestClock {
    var now: UInt64 = 0
  }

  /// Every wrong and right verdict stays on screen for the whole feedback time counted
  /// from the frame that first shows it, however long the judge took: stepped in the
  /// live loop's order (input, then a present when due, then the earliest of the timer
  /// and the flip's completion one refresh later).
  func testASlowJudgementShowsItsVerdictForTheWholeFeedbackTime() throws {
    let feedback: UInt64 = 500_000
    let refresh: UInt64 = 16_667
    for cost: UInt64 in [0, 300_000, 2_000_000] {
      let layout = try GridLayout(LayoutOptions())
      var screen = LockScreen<XRGB8888>(testing: layout, .testing(feedbackMicroseconds: feedback))
      var display = SlowDisplay(memory: MemoryDisplay<XRGB8888>(width: 800, height: 480))
      var rules = LiveStepRules()
      let clock = TestClock()
      var judge = SlowJudge(inner: MatchJudge(DotSequence([1, 2, 3, 6])), clock: clock, cost: cost)
      var timerDue: UInt64?
      var flipDue: UInt64?
      /// Each presented picture's appearance and when it was presented.
      var presented: [(appearance: LockScreenState.Appearance, at: UInt64)] = []

      func takeTimer() { if let delay = rules.takeTimerDelay() { timerDue = clock.now + delay } }
      func prepare() throws {
        guard rules.ending(of: screen, on: display) == nil, rules.shouldPresent(screen, on: display) else { return }
        let appearance = screen.controller.state.appearance
        if try screen.present(on: &display, at: clock.now).presented {
          presented.append((appearance, clock.now))
          flipDue = clock.now + refresh
        }
        rules.presented(screen, at: clock.now)
        takeTimer()
      }
      /// Waits for the earliest of the timer and the flip, and drains it.
      func waitAndDrain() throws {
        let next = [timerDue, flipDue].compactMap { $0 }.min()!
        clock.now = max(clock.now, next)
        if flipDue == next {
          flipDue = nil
          _ = try display.completeFlip()
        } else {
          timerDue = nil
          rules.timerFired(at: clock.now, screen: &screen, judge: &judge)
          takeTimer()
        }
      }
      func enter(_ dots: [Int]) throws {
        clock.now += 100_000
        for n in dots { rules.receive(.key(.dot(n)), at: clock.now, screen: &screen, judge: &judge) }
        rules.receive(.key(.submit), at: clock.now, screen: &screen, judge: &judge)
        rules.inputTaken(screen, at: clock.now)
        takeTimer()
      }

      rules.start(screen, at: clock.now)
      try prepare()
      try enter([1, 2, 3, 5])
      try prepare()
      while screen.controller.feedbackEnds != nil || display.isFlipPending {
        try waitAndDrain()
        try prepare()
      }
      try enter([1, 2, 3, 6])
      var steps = 0
      while rules.ending(of: screen, on: display) == nil {
        try prepare()
        if rules.ending(of: screen, on: display) != nil { break }
        try waitAndDrain()
        steps += 1
        XCTAssertLessThan(steps, 1000, "the lock must end")
        if steps >= 1000 { return }
      }

      for verdict in [LockScreenState.Appearance.wrong, .success] {
        guard let first = presented.firstIndex(where: { $0.appearance == verdict }) else {
          XCTFail("cost \(cost): the \(verdict) verdict was never presented")
          continue
        }
        let after = presented[(first + 1)...].first { $0.appearance != verdict }
        // The unlock ends the lock instead of a next picture: the end is the clock then.
        let end = after?.at ?? clock.now
        XCTAssertGreaterThanOrEqual(
          end - presented[first].at, feedback, "cost \(cost): the \(verdict) verdict was cut short")
      }
    }
  }

  /// A judge in another process (session-lock's over its socket): it answers later,
  /// when `answerAt` has come, through `takeAnswer`.
  struct LaterJudge: PatternJudge {
    var inner: MatchJudge
    let limit: UInt64
    var answerAt: UInt64?
    var outcome: GestureOutcome?
    mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
      self.outcome = outcome
      return .pending(answerBy: now + limit)
    }
    var answerDescriptor: Int32 { 99 }
    mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
      if let at = answerAt, now >= at, let outcome { return inner.judge(outcome, at: now) }
      return now >= due ? LockScreenController.Judgement(verdict: .rejected(.busyTryAgain)) : nil
    }
  }

  /// While another process judges, the loop goes on: the pattern is shown as
  /// "Checking…", no new pattern is taken, the timer is armed for the answer's time
  /// limit, and the answer, when it comes, is the verdict, seen for its whole time.
  func testAJudgeThatAnswersLaterLeavesTheLoopRunningAndShowsCheckingMeanwhile() throws {
    let feedback: UInt64 = 500_000
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(feedbackMicroseconds: feedback))
    var display = MemoryDisplay<XRGB8888>(width: 800, height: 480)
    var rules = LiveStepRules()
    var judge = LaterJudge(inner: MatchJudge(DotSequence([1, 2, 3, 6])), limit: 30_000_000)
    var now: UInt64 = 1_000_000
    rules.start(screen, at: now)
    _ = try screen.present(on: &display, at: now)
    _ = rules.takeTimerDelay()

    for n in [1, 2, 3, 5] { rules.receive(.key(.dot(n)), at: now, screen: &screen, judge: &judge) }
    rules.receive(.key(.submit), at: now, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.awaitsAnswer)
    XCTAssertEqual(screen.controller.state.prompt, .checking)
    XCTAssertEqual(screen.controller.state.appearance, .entry)
    XCTAssertEqual(screen.controller.state.trail, DotSequence([1, 2, 3, 5]), "the pattern stays while it is checked")
    XCTAssertEqual(rules.takeTimerDelay(), 30_000_000, "the timer waits for the answer's time limit")
    XCTAssertTrue(rules.shouldPresent(screen, on: display), "the checking picture is drawn at once")
    _ = try screen.present(on: &display, at: now)

    // Meanwhile the loop runs: a second's tick changes nothing, keys are not taken.
    now += 1_000_000
    rules.timerFired(at: now, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.awaitsAnswer)
    rules.receive(.key(.dot(9)), at: now, screen: &screen, judge: &judge)
    XCTAssertEqual(screen.controller.state.trail, DotSequence([1, 2, 3, 5]))

    // The answer comes: the verdict, timed from its first frame.
    judge.answerAt = now
    rules.answerReady(at: now, screen: &screen, judge: &judge)
    XCTAssertFalse(screen.awaitsAnswer)
    XCTAssertEqual(screen.controller.state.appearance, .wrong)
    XCTAssertEqual(screen.controller.state.prompt, .wrongPattern)
    now += 200_000
    _ = try screen.present(on: &display, at: now)
    rules.presented(screen, at: now)
    XCTAssertEqual(rules.takeTimerDelay(), feedback)
    now += feedback
    rules.timerFired(at: now, screen: &screen, judge: &judge)
    XCTAssertEqual(screen.controller.state.appearance, .entry)
    XCTAssertTrue(screen.controller.isAcceptingInput)

    // No answer within the time limit: nothing was judged, the lock says so.
    judge.answerAt = nil
    for n in [1, 2, 3, 6] { rules.receive(.key(.dot(n)), at: now, screen: &screen, judge: &judge) }
    rules.receive(.key(.submit), at: now, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.awaitsAnswer)
    rules.answerReady(at: now + 1, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.awaitsAnswer, "a wake before the answer changes nothing")
    now += 30_000_000
    rules.timerFired(at: now, screen: &screen, judge: &judge)
    XCTAssertFalse(screen.awaitsAnswer)
    XCTAssertEqual(screen.controller.state.prompt, .busyTryAgain)
    XCTAssertFalse(screen.isFinished)
  }
}
