import PatternCore
import Scene

/// What the screen says about a finished pattern when no secret store is used:
/// `replay` without `--state-dir`, and `run --pattern` (development only).
enum DevelopmentVerdict {
  static func verdict(for outcome: GestureOutcome, expected: DotSequence?, minimumDots: Int) -> LockScreenController.Verdict {
    guard outcome.result == .complete else {
      var text = PromptText("Too short: join at least ")
      text.append(minimumDots)
      text.append(" dots")
      return .rejected(text)
    }
    guard let expected else { return .neutral(PromptText("Pattern entered")) }
    return outcome.dots == expected ? .accepted(PromptText("Unlocked")) : .rejected(PromptText("Wrong pattern"))
  }
}
