/// Where the grid stands for one attempt (`GridMotion`): how far it is shifted and
/// how it is turned, as values, so the pure modules stay deterministic and the
/// randomness is the caller's (the system's in the live lock, a seed in `replay`).
///
/// The shift is in steps of a sixteenth of the room the grid has to move in its own
/// square (`GridLayout.shiftRoom`), not in pixels, so every output of a session lock
/// moves its own grid by the same share of its own room. The turn is clockwise, in
/// quarter turns; dot numbers stay the grid's own (dot 1 is the grid's top left
/// corner wherever that is drawn), so a pattern is the same whichever way it stands.
public struct GridPlacement: Hashable, Sendable {
  /// The steps one way of the room to move in: a shift is -`steps`...`steps` of them.
  public static let steps = 16

  /// Steps right (negative: left), -`steps`...`steps`.
  public let shiftX: Int
  /// Steps down (negative: up), -`steps`...`steps`.
  public let shiftY: Int
  /// Clockwise quarter turns, 0...3.
  public let quarterTurns: Int

  /// The grid where the layout puts it, upright.
  public static let home = GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 0)

  public init(shiftX: Int, shiftY: Int, quarterTurns: Int) {
    let range = -GridPlacement.steps...GridPlacement.steps
    precondition(range.contains(shiftX) && range.contains(shiftY), "grid shift out of range")
    precondition((0...3).contains(quarterTurns), "quarter turns out of range")
    self.shiftX = shiftX
    self.shiftY = shiftY
    self.quarterTurns = quarterTurns
  }

  /// The placement `motion` picks from 64 random bits: every shift (or every turn)
  /// about equally likely; `.home` for `.off`.
  ///
  /// Each shift is taken from 16 bits modulo the 33 steps, so its bias is below one
  /// part in 65,536; a turn takes two bits.
  public init(choosing motion: GridMotion, randomBits bits: UInt64) {
    let span = UInt64(2 * GridPlacement.steps + 1)
    switch motion {
    case .off:
      self = .home
    case .shift:
      self.init(
        shiftX: Int((bits & 0xFFFF) % span) - GridPlacement.steps,
        shiftY: Int(((bits >> 16) & 0xFFFF) % span) - GridPlacement.steps, quarterTurns: 0)
    case .turn:
      self.init(shiftX: 0, shiftY: 0, quarterTurns: Int(bits & 3))
    }
  }

  /// Where dot `dot` (the grid's own number) is drawn: the dot number of the same
  /// place on the upright grid.
  public func slot(of dot: Int, gridSize n: Int) -> Int {
    var row = (dot - 1) / n, column = (dot - 1) % n
    for _ in 0..<quarterTurns { (row, column) = (column, n - 1 - row) }
    return row * n + column + 1
  }

  /// The grid's own number of the dot drawn at place `slot` of the upright grid.
  public func dot(atSlot slot: Int, gridSize n: Int) -> Int {
    var row = (slot - 1) / n, column = (slot - 1) % n
    for _ in 0..<quarterTurns { (row, column) = (n - 1 - column, row) }
    return row * n + column + 1
  }
}
