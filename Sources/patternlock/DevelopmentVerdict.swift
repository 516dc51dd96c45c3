import PatternCore
import Scene

/// What the screen says about a finished pattern when no secret store is used:
/// `replay` without `--state-dir`, and `run --pattern` (development only).
enum DevelopmentVerdict {
  static func verdict(for outcome: GestureOutcome, expected: DotSequence?, minimumDots: Int) -> LockScreenController.Verdict {
    guard outcome.result == .complete else { return .rejected(.tooShort(minimumDots: minimumDots)) }
    guard let expected else { return .neutral(.patternEntered) }
    return outcome.dots == expected ? .accepted(.unlocked) : .rejected(.wrongPattern)
  }

  /// `run --pattern`: the verdict, with an unlock when the dots match.
  static func judgement(for outcome: GestureOutcome, expected: DotSequence, minimumDots: Int) -> LockScreenController.Judgement {
    LockScreenController.Judgement(
      verdict: verdict(for: outcome, expected: expected, minimumDots: minimumDots), lockout: nil,
      unlocks: outcome.result == .complete && outcome.dots == expected)
  }

  /// The line `run --pattern` prints for a finished pattern.
  static func resultLine(for outcome: GestureOutcome, expected: DotSequence) -> String {
    var line = JSONObjectWriter()
    line.add("dots", raw: outcome.dots.jsonArray)
    line.add("result", string: outcome.result.name)
    line.add("match", raw: outcome.dots == expected ? "true" : "false")
    return line.json
  }
}
