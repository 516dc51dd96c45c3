/// A target from the project's issue, reported next to a figure (never asserted:
/// timings depend on the machine).
struct Goal {
  /// What the ratio compares, for people: `cairo-full`.
  let against: String
  /// The largest ratio that meets the goal.
  let limit: Double
  /// The measured ratio, or nil when the figure to compare with is missing.
  let ratio: Double?

  var isMet: Bool? { ratio.map { $0 <= limit } }

  /// `<= 0.25x cairo-full`.
  var text: String { "<= \(Decimal.text(limit, digits: 2))x \(against)" }

  /// `✓ met`, `✗ missed` or `? no cairo figure`.
  var verdict: String {
    switch isMet {
    case .some(true): return "✓ met"
    case .some(false): return "✗ missed"
    case .none: return "? no \(against) figure"
    }
  }
}
