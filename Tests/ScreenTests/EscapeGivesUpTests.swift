import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// Escape clears keyed dots; with none to clear it asks the judge to give its question
/// up, which only a judge answering someone else's question does (the password agent):
/// then the lock ends. Every other judge keeps the lock up.
final class EscapeGivesUpTests: XCTestCase {
  /// Gives up on request, counting how often it was asked.
  struct GivingUpJudge: PatternJudge {
    var asked = 0
    mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
      LockScreenController.Judgement(verdict: .rejected(.wrongPattern))
    }
    mutating func cancel(at now: UInt64) -> Bool {
      asked += 1
      return true
    }
  }

  func testEscapeWithKeyedDotsOnlyClearsThem() throws {
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()), .testing())
    var judge = GivingUpJudge()
    screen.receive(.key(.dot(1)), at: 0, judge: &judge)
    screen.receive(.key(.clear), at: 1, judge: &judge)
    XCTAssertEqual(judge.asked, 0, "there was something to clear")
    XCTAssertTrue(screen.controller.state.trail.isEmpty)
    XCTAssertFalse(screen.unlocked)
    screen.receive(.key(.clear), at: 2, judge: &judge)
    XCTAssertEqual(judge.asked, 1)
    XCTAssertTrue(screen.unlocked, "the judge gave its question up: the lock ends")
  }

  func testAJudgeOfItsOwnKeepsTheLockUp() throws {
    var screen = LockScreen<XRGB8888>(testing: try GridLayout(LayoutOptions()), .testing())
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    screen.receive(.key(.clear), at: 0, judge: &judge)
    XCTAssertFalse(screen.unlocked, "Escape never opens a lock")
  }

  func testTheControllerSaysWhenEscapeHadNothingToClear() throws {
    var c = LockScreenController(layout: try GridLayout(LayoutOptions()))
    c.keyDot(5, at: 0)
    XCTAssertFalse(c.keyClear(at: 0))
    XCTAssertTrue(c.keyClear(at: 0))
  }
}
