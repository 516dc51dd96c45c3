import PatternCore

/// The attacker's order itself: walking the patterns that cost at most some amount,
/// a pattern's place in the order, and the order's head.
extension ChoiceModel {
  /// Calls `body` with every drawable pattern of `minimumDots` or more that costs at
  /// most `limit`, and its cost, in no particular order, until `body` returns false.
  ///
  /// - Returns: false when `body` stopped the walk.
  @discardableResult
  public func forEachPattern(costingAtMost limit: Int, _ body: (DotSequence, Int) -> Bool) -> Bool {
    var prefix = DotSequence()
    for start in 1...(gridSize * gridSize) {
      prefix.append(start)
      let going = walk(&prefix, cost: startCostOfDot[start - 1], limit: limit, body)
      prefix.removeLast()
      if !going { return false }
    }
    // Named shapes whose moves alone cost more than the limit but whose price does not.
    for shape in namedShapes {
      guard let price = shapeCost(of: shape), price <= limit, markovCost(of: shape) > limit else { continue }
      if !body(shape, price) { return false }
    }
    return true
  }

  /// The walk below `prefix`, whose cost so far (start, moves, going on) is `cost`.
  private func walk(
    _ prefix: inout DotSequence, cost: Int, limit: Int, _ body: (DotSequence, Int) -> Bool
  ) -> Bool {
    if cost > limit { return true }
    var moves = OpenMoves()
    forEachOpenMove(from: prefix) { dot, weight in moves.add(dot, weight) }
    if prefix.count >= minimumDots {
      let markov = cost + stopCost(atLength: prefix.count, canContinue: moves.count > 0)
      if markov <= limit && !body(prefix, min(markov, shapeCost(of: prefix) ?? Int.max)) { return false }
    }
    guard moves.count > 0 else { return true }
    let goOn = cost + continueCost(atLength: prefix.count)
    for i in 0..<moves.count {
      prefix.append(moves.dots[i])
      let going = walk(&prefix, cost: goOn + Millibits.of(moves.weights[i], in: moves.total), limit: limit, body)
      prefix.removeLast()
      if !going { return false }
    }
    return true
  }

  /// The cost without the named shapes' price.
  func markovCost(of dots: DotSequence) -> Int {
    var prefix = DotSequence()
    prefix.append(dots[0])
    var total = startCostOfDot[dots[0] - 1]
    for i in 1..<dots.count {
      total += continueCost(atLength: i) + moveCost(from: prefix, to: dots[i])
      prefix.append(dots[i])
    }
    return total + stopCost(atLength: dots.count, canContinue: hasOpenMove(prefix))
  }

  /// Where `dots` comes in the attacker's order, from 1: how many guesses an attacker
  /// who knows this model needs to reach it. Nil when more than `atMost` patterns come
  /// first (counting them all would take too long on a large grid), or when no finger
  /// draws `dots`.
  public func guessNumber(of dots: DotSequence, atMost: Int = Int.max) -> Int? {
    guard let own = cost(of: dots) else { return nil }
    var before = 0
    let counted = forEachPattern(costingAtMost: own) { other, otherCost in
      if otherCost < own || (otherCost == own && ChoiceModel.precedes(other, dots)) { before += 1 }
      return before < atMost
    }
    return counted ? before + 1 : nil
  }

  /// The first `count` patterns of the attacker's order, in order.
  public func head(_ count: Int) -> [DotSequence] {
    // Raise the limit until enough patterns cost less, then sort those; past 100 bits
    // the walk has every pattern there is.
    var limit = 4_000
    var found: [(dots: DotSequence, cost: Int)] = []
    while true {
      found.removeAll(keepingCapacity: true)
      forEachPattern(costingAtMost: limit) { dots, cost in
        found.append((dots, cost))
        return true
      }
      if found.count >= count || limit >= 100_000 { break }
      limit += 1_000
    }
    found.sort { $0.cost != $1.cost ? $0.cost < $1.cost : ChoiceModel.precedes($0.dots, $1.dots) }
    return found.prefix(count).map { $0.dots }
  }

  /// The order between patterns of equal cost: by their dots, shorter first.
  public static func precedes(_ a: DotSequence, _ b: DotSequence) -> Bool {
    if a.count != b.count { return a.count < b.count }
    for i in 0..<a.count where a[i] != b[i] { return a[i] < b[i] }
    return false
  }
}

/// The moves open from one prefix with their weights, stored inline (a grid has at most
/// 49 dots), so the walk allocates nothing per step.
struct OpenMoves {
  var dots = InlineArray<49, Int>(repeating: 0)
  var weights = InlineArray<49, Int>(repeating: 0)
  var count = 0
  var total = 0

  mutating func add(_ dot: Int, _ weight: Int) {
    dots[count] = dot
    weights[count] = weight
    count += 1
    total += weight
  }
}
