import Configuration
import PatternCore
import Scene
import Screen
import Vault

/// `patternlock enroll`: the pattern is drawn twice on the display; when both agree
/// its Argon2id hash replaces the stored one.
///
/// Too short and mismatch are explained on screen and start over; nothing is saved
/// until the confirmation matches. The first drawing lives only in this value, never
/// on disk.
struct EnrollmentGate: PatternJudge, ~Copyable {
  private let directory: StateDirectory
  private let gridSize: Int
  /// The fewest dots a pattern may have.
  let minimumDots: Int
  private let cost: HashCost
  /// For `[vault] tpm`, `tpm-tcti` and the TPM's limit.
  private let settings: Settings
  private var first: DotSequence?

  /// The prompt while waiting for the first drawing.
  static let startPrompt = PromptText.drawNewPattern

  /// Opens (creating when missing) the state directory before anything is drawn, so a
  /// directory that cannot be used is said before the display is taken.
  init(
    stateDirectory path: String, gridSize: Int, minimumDots: Int, cost: HashCost, settings: Settings = Settings()
  ) throws(VaultError) {
    self.settings = settings
    directory = try StateDirectory(opening: path, creating: true)
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    self.cost = cost
  }

  /// Judges one drawing: the first is remembered, the second must match it.
  mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let dots = outcome.dots
    guard dots.count >= minimumDots else {
      first = nil
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)), unlocks: false, nextPrompt: EnrollmentGate.startPrompt)
    }
    guard let expected = first else {
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
    let recoveryKey: String?
    do throws(VaultError) {
      recoveryKey = try PatternEnrolment.enrol(
        dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost, settings: settings, in: directory, by: .enroll)
    } catch {
      Console.error(error.message + "; the pattern was not saved")
      return LockScreenController.Judgement(
        verdict: .rejected(.cannotSavePattern), unlocks: false,
        nextPrompt: EnrollmentGate.startPrompt)
    }
    Console.out("pattern set in \(directory.path) (\(gridSize)x\(gridSize) grid, at least \(minimumDots) dots)")
    if let recoveryKey { PatternEnrolment.announce(recoveryKey: recoveryKey) }
    return LockScreenController.Judgement(verdict: .accepted(.patternSaved), unlocks: true, nextPrompt: nil)
  }
}
