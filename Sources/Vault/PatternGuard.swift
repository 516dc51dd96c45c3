import PatternChoice
import PatternCore

/// The rule every new pattern passes before it is stored: a pattern among the most
/// commonly chosen (`PatternBlocklist`, the head of `ChoiceModel`'s attacker's order)
/// is refused. The constructors of a new owner pattern and `CredentialFile.add` ask it
/// themselves, so no enrolment path can store one without going through it.
///
/// `[vault] blocklist` (system-only) widens the list or turns the guard off. The list is
/// built once per guard and grid, when first asked (it takes a walk over the order).
public final class PatternGuard {
  /// How many patterns of the order's head are refused, with their images; nil when
  /// the guard is off.
  public let blocklistSize: Int?
  private var built: PatternBlocklist?
  private var builtMinimumDots = 0

  /// - Parameter blocklistSize: nil turns the guard off.
  public init(blocklistSize: Int? = PatternBlocklist.standardSize) {
    self.blocklistSize = blocklistSize
  }

  /// The refused patterns for a grid and minimum, or nil when the guard is off.
  public func blocklist(gridSize: Int, minimumDots: Int) -> PatternBlocklist? {
    guard let size = blocklistSize else { return nil }
    if let built, built.gridSize == gridSize, builtMinimumDots == minimumDots { return built }
    let list = PatternBlocklist(model: ChoiceModel(gridSize: gridSize, minimumDots: minimumDots), headSize: size)
    built = list
    builtMinimumDots = minimumDots
    return list
  }

  /// Whether the guard refuses `dots` on this grid with this minimum.
  public func refuses(_ dots: DotSequence, gridSize: Int, minimumDots: Int) -> Bool {
    blocklist(gridSize: gridSize, minimumDots: minimumDots)?.refuses(dots) ?? false
  }

  /// - Throws: `VaultError.patternCommon` when the guard refuses `dots`.
  public func check(_ dots: DotSequence, gridSize: Int, minimumDots: Int) throws(VaultError) {
    guard let list = blocklist(gridSize: gridSize, minimumDots: minimumDots), list.refuses(dots) else { return }
    throw .patternCommon(listSize: list.count)
  }
}
