import PatternCore

/// What an enrolment says about a new pattern's strength: about how many guesses an
/// attacker who knows how people choose would need, in round buckets (the audit log
/// records only the bucket, never the pattern).
public enum GuessEstimate: Sendable, Equatable {
  /// Within this many guesses (20, 100, 1,000, 10,000 or 100,000).
  case within(Int)
  /// Beyond 100,000 guesses.
  case beyond(Int)

  /// The buckets' upper ends.
  public static let bounds = [20, 100, 1_000, 10_000, 100_000]

  /// The bucket of a place in the attacker's order (nil: past the last bucket).
  public init(guessNumber: Int?) {
    guard let number = guessNumber, let bound = GuessEstimate.bounds.first(where: { number <= $0 }) else {
      self = .beyond(GuessEstimate.bounds[GuessEstimate.bounds.count - 1])
      return
    }
    self = .within(bound)
  }

  /// Estimates `dots` with `model`: at most 100,000 patterns are counted.
  public init(_ dots: DotSequence, model: ChoiceModel) {
    self.init(guessNumber: model.guessNumber(of: dots, atMost: GuessEstimate.bounds[GuessEstimate.bounds.count - 1]))
  }

  /// The bucket as the audit log and `status` write it: `20`, `100`, ... or `100000+`.
  public var bucket: String {
    switch self {
    case .within(let bound): return "\(bound)"
    case .beyond(let bound): return "\(bound)+"
    }
  }

  /// One line for people: "about N guesses in an attacker's order; the lock allows 20".
  public func sentence(allowedGuesses: Int) -> String {
    switch self {
    case .within(let bound):
      return "found within about \(GuessEstimate.grouped(bound)) guesses in an attacker's order; the lock allows \(allowedGuesses)"
    case .beyond(let bound):
      return "more than \(GuessEstimate.grouped(bound)) guesses in an attacker's order; the lock allows \(allowedGuesses)"
    }
  }

  /// 100000 as "100,000".
  static func grouped(_ n: Int) -> String {
    let digits = "\(n)"
    var text = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { text += "," }
      text.append(c)
    }
    return text
  }
}
