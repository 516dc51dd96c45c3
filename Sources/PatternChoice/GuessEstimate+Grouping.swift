/// Numbers as the enrolment's messages write them, for the modules that say what the
/// guard refused.
extension GuessEstimate {
  /// `n` with its thousands grouped by commas: 1000 as "1,000".
  public static func groupedDigits(_ n: Int) -> String { grouped(n) }
}
