import PatternCore

/// A model of how people choose unlock patterns: the attacker's order over every pattern
/// of a grid, most likely first, built from the published regularities in
/// `ChoiceParameters` (where patterns start, how long they are, short and straight moves
/// in reading direction, and the named shapes of `NamedShapes`).
///
/// A pattern's cost is its information in millibits: the start dot's, each move's among
/// the moves open at that point, going on past each length and stopping at the last,
/// all integer. An image of a named shape costs at most its shape price. Lower cost
/// comes earlier; equal costs are ordered by the dots, so the order is total and the
/// same on every machine.
///
/// Used at enrolment only (never per frame): counting a pattern's place walks every
/// pattern that costs less, which on 3x3 is at most the 389,112 patterns of 4 dots
/// or more.
public struct ChoiceModel: Sendable {
  public let gridSize: Int
  /// The fewest dots a pattern has (the lock's minimum, 4 by default).
  public let minimumDots: Int
  let startCostOfDot: [Int]
  let namedShapes: [DotSequence]
  /// The shapes' dot sets, sorted: the walk asks at every step whether its prefix is a
  /// shape, and almost never is, so a binary search over these answers before the
  /// shapes themselves are compared.
  let namedShapeMembers: [UInt64]
  let moves: MoveTable

  public init(gridSize: Int, minimumDots: Int = 4) {
    precondition(gridSize >= 3 && gridSize <= 7, "grids are 3x3 to 7x7")
    self.gridSize = gridSize
    self.minimumDots = max(minimumDots, 1)
    startCostOfDot = ChoiceModel.startCosts(gridSize: gridSize)
    namedShapes = NamedShapes.allImages(gridSize: gridSize)
    namedShapeMembers = namedShapes.map { $0.bitmask }.sorted()
    moves = MoveTable(gridSize: gridSize)
  }

  // MARK: The cost of one pattern

  /// The pattern's cost in millibits (lower: chosen more often); nil for a sequence no
  /// finger draws (empty, or a move over a dot not yet joined).
  public func cost(of dots: DotSequence) -> Int? {
    guard dots.count >= 1, dots.firstPassedOverDot(gridSize: gridSize) == nil else { return nil }
    return min(markovCost(of: dots), shapeCost(of: dots) ?? Int.max)
  }

  /// The price of a named shape's image, if `dots` is one.
  func shapeCost(of dots: DotSequence) -> Int? {
    guard dots.count >= minimumDots, mayBeNamedShape(dots), namedShapes.contains(dots) else { return nil }
    return ChoiceParameters.namedShapeMillibits + startCostOfDot[dots[0] - 1]
  }

  /// Whether some shape joins exactly the dots of `dots` (in any order).
  private func mayBeNamedShape(_ dots: DotSequence) -> Bool {
    let members = dots.bitmask
    var low = 0, high = namedShapeMembers.count
    while low < high {
      let middle = (low + high) / 2
      if namedShapeMembers[middle] < members { low = middle + 1 } else { high = middle }
    }
    return low < namedShapeMembers.count && namedShapeMembers[low] == members
  }

  // MARK: Parts of the cost

  /// Where people start: the top-left corner, the other corners, the centre (or the
  /// inner dots), the rest of the edge.
  static func startCosts(gridSize: Int) -> [Int] {
    let last = gridSize - 1
    let count = gridSize * gridSize
    let edgeDots = 4 * (gridSize - 2)
    let innerDots = count - 4 - edgeDots
    let otherCorners = (ChoiceParameters.startAnyCornerPerMille - ChoiceParameters.startTopLeftPerMille) / 3
    let inner = ChoiceParameters.startCentrePerMille
    let edgeShare = 1000 - ChoiceParameters.startAnyCornerPerMille - inner
    // Shares in millionths so that each dot's part stays a whole number.
    var costs: [Int] = []
    for dot in 0..<count {
      let row = dot / gridSize, column = dot % gridSize
      let onRowEdge = row == 0 || row == last, onColumnEdge = column == 0 || column == last
      let share: Int
      if dot == 0 {
        share = ChoiceParameters.startTopLeftPerMille * 1000
      } else if onRowEdge && onColumnEdge {
        share = otherCorners * 1000
      } else if onRowEdge || onColumnEdge {
        share = edgeShare * 1000 / edgeDots
      } else {
        share = inner * 1000 / innerDots
      }
      costs.append(Millibits.of(share, in: 1_000_000))
    }
    return costs
  }

  /// The cost of going on after `length` dots (nothing below the minimum: a pattern
  /// that short is not accepted, so nobody stops there).
  func continueCost(atLength length: Int) -> Int {
    guard length >= minimumDots else { return 0 }
    let stop = stopPerMille(atLength: length)
    return stop >= 1000 ? 0 : Millibits.of(1000 - stop, in: 1000)
  }

  /// The cost of stopping after `length` dots; nothing when no move is left.
  func stopCost(atLength length: Int, canContinue: Bool) -> Int {
    guard canContinue else { return 0 }
    return Millibits.of(max(stopPerMille(atLength: length), 1), in: 1000)
  }

  /// The chance (per mille) that someone who has drawn `length` dots stops there: the
  /// length shares turned into a chance of stopping given the length was reached.
  func stopPerMille(atLength length: Int) -> Int {
    let shares = ChoiceParameters.lengthPerMille
    // The shares are for lengths counted from 4; a larger minimum starts at its own.
    let index = length - max(minimumDots, 4)
    if index < 0 { return 0 }
    if index >= shares.count - 1 {
      return length >= gridSize * gridSize ? 1000 : ChoiceParameters.stopPerMilleFromNineDots
    }
    var reached = 0
    for share in shares[index...] { reached += share }
    return shares[index] * 1000 / reached
  }

  /// The cost of joining `next` after `prefix`: its weight among every move open now.
  func moveCost(from prefix: DotSequence, to next: Int) -> Int {
    var total = 0
    var chosen = 0
    forEachOpenMove(from: prefix) { dot, weight in
      total += weight
      if dot == next { chosen = weight }
    }
    precondition(chosen > 0, "the move must be open: the pattern is drawable")
    return Millibits.of(chosen, in: total)
  }

  func hasOpenMove(_ prefix: DotSequence) -> Bool {
    var any = false
    forEachOpenMove(from: prefix) { _, _ in any = true }
    return any
  }

  /// Calls `body` with each dot a finger can join next (not joined yet, and no unjoined
  /// dot on the way) and the move's weight.
  func forEachOpenMove(from prefix: DotSequence, _ body: (Int, Int) -> Void) {
    guard let last = prefix.last else { return }
    let previous = prefix.count >= 2 ? moves.direction(from: prefix[prefix.count - 2], to: last) : -1
    moves.forEachOpenMove(from: last, joined: prefix.bitmask, previousDirection: previous, body)
  }
}

func gcd(_ a: Int, _ b: Int) -> Int {
  var (a, b) = (a, b)
  while b != 0 { (a, b) = (b, a % b) }
  return a
}
