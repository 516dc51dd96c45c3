import CommandKit
import Configuration
import PatternChoice
import PatternCore
import Scene
import Screen
import Vault

/// `patternlock enroll`: the pattern is drawn twice on the display; when both agree
/// its Argon2id hash replaces the stored one.
///
/// Too short, too common (`[vault] blocklist`) and mismatch are explained on screen and
/// start over; nothing is saved until the confirmation matches. The first drawing lives
/// only in this value, never on disk. Once saved, the screen says about how many
/// guesses the pattern takes against the tries the lock allows.
package struct EnrollmentGate: PatternJudge, ~Copyable {
  private let directory: StateDirectory
  private let gridSize: Int
  /// The fewest dots a pattern may have.
  package let minimumDots: Int
  private let cost: HashCost
  /// For `[vault] tpm`, `tpm-tcti` and the TPM's limit.
  private let settings: Settings
  /// Refuses the most commonly chosen patterns at the first drawing (its list is built
  /// then, once); `PatternEnrolment` asks the same guard again before storing.
  private let patternGuard: PatternGuard
  private var first: DotSequence?

  /// The prompt while waiting for the first drawing.
  package static let startPrompt = PromptText.drawNewPattern

  /// Opens (creating when missing) the state directory before anything is drawn, so a
  /// directory that cannot be used is said before the display is taken.
  package init(
    stateDirectory path: String, gridSize: Int, minimumDots: Int, cost: HashCost, settings: Settings = Settings()
  ) throws(VaultError) {
    self.settings = settings
    patternGuard = PatternGuard(blocklistSize: settings.blocklistSize)
    directory = try StateDirectory(opening: path, creating: true)
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    self.cost = cost
  }

  /// Judges one drawing: the first is remembered, the second must match it.
  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let dots = outcome.dots
    guard dots.count >= minimumDots else {
      first = nil
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)), unlocks: false, nextPrompt: EnrollmentGate.startPrompt)
    }
    guard let expected = first else {
      if patternGuard.refuses(dots, gridSize: gridSize, minimumDots: minimumDots) { return refuseCommon() }
      first = dots
      let again = PromptText.drawAgainToConfirm
      return LockScreenController.Judgement(verdict: .neutral(again), unlocks: false, nextPrompt: again)
    }
    first = nil
    guard dots == expected else {
      return LockScreenController.Judgement(
        verdict: .rejected(.noMatchDrawNew), unlocks: false,
        nextPrompt: EnrollmentGate.startPrompt)
    }
    let stored: PatternEnrolment.Stored
    do throws(VaultError) {
      stored = try PatternEnrolment.enrol(
        dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, settings: settings, in: directory, by: .enroll)
    } catch {
      if case .patternCommon = error { return refuseCommon() }
      Console.error(error.message + "; the pattern was not saved")
      return LockScreenController.Judgement(
        verdict: .rejected(.cannotSavePattern), unlocks: false,
        nextPrompt: EnrollmentGate.startPrompt)
    }
    Console.out("pattern set in \(directory.path) (\(gridSize)x\(gridSize) grid, at least \(minimumDots) dots)")
    Console.out(PatternEnrolment.strengthLine(stored.estimate, settings: settings))
    if let recoveryKey = stored.recoveryKey { PatternEnrolment.announce(recoveryKey: recoveryKey) }
    return LockScreenController.Judgement(
      verdict: .accepted(EnrollmentGate.savedPrompt(stored.estimate, allowed: settings.throttle.permanentAfter)),
      unlocks: true, nextPrompt: nil)
  }

  /// The refusal of a commonly chosen pattern: said on the screen and on standard error
  /// (never the pattern), and back to the first drawing.
  private mutating func refuseCommon() -> LockScreenController.Judgement {
    first = nil
    Console.error("enroll: " + VaultError.patternCommon(listSize: patternGuard.blocklistSize ?? 0).message)
    return LockScreenController.Judgement(
      verdict: .rejected(.commonPattern), unlocks: false, nextPrompt: EnrollmentGate.startPrompt)
  }

  /// "Saved: found within about 1000 guesses; the lock allows 20".
  package static func savedPrompt(_ estimate: GuessEstimate, allowed: Int) -> PromptText {
    switch estimate {
    case .within(let bound): return .patternSaved(foundWithinGuesses: bound, allowed: allowed)
    case .beyond(let bound): return .patternSaved(needingMoreThanGuesses: bound, allowed: allowed)
    }
  }
}
