import CommandKit
import PatternCore
import Scene
import Screen

/// Judges against a pattern given in plain text (`--pattern`, development only) or
/// against nothing (`replay` without a secret), and prints each finished gesture as
/// `{"dots":[1,2,3,6],"result":"complete","match":true}` ("match" only for a complete
/// gesture with a pattern to compare with). The dots may be printed: no secret is
/// involved.
package struct DevelopmentJudge: PatternJudge {
  /// The pattern that is accepted, or nil to accept none (every complete gesture is
  /// shown as entered).
  package let expected: DotSequence?
  package let minimumDots: Int
  /// Whether a match unlocks (`run`), or is only shown as accepted (`replay`).
  package let matchUnlocks: Bool

  package init(expected: DotSequence?, minimumDots: Int, matchUnlocks: Bool) {
    self.expected = expected
    self.minimumDots = minimumDots
    self.matchUnlocks = matchUnlocks
  }

  package func verdict(for outcome: GestureOutcome) -> LockScreenController.Verdict {
    guard outcome.result == .complete else { return .rejected(.tooShort(minimumDots: minimumDots)) }
    guard let expected else { return .neutral(.patternEntered) }
    return outcome.dots == expected ? .accepted(.unlocked) : .rejected(.wrongPattern)
  }

  package func resultLine(for outcome: GestureOutcome) -> String {
    var line = JSONObjectWriter()
    line.add("dots", raw: outcome.dots.jsonArray)
    line.add("result", string: outcome.result.name)
    if let expected, outcome.result == .complete {
      line.add("match", raw: outcome.dots == expected ? "true" : "false")
    }
    return line.json
  }

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    Console.out(resultLine(for: outcome))
    let matches = outcome.result == .complete && expected.map { outcome.dots == $0 } == true
    return LockScreenController.Judgement(verdict: verdict(for: outcome), unlocks: matchUnlocks && matches)
  }
}
