/// Per-frame times of one figure, and the clock that takes them.
///
/// Timing uses the standard library's `ContinuousClock` (CLOCK_MONOTONIC with
/// nanoseconds) rather than `pl_monotonic_microseconds`: an incremental frame takes
/// tens of microseconds, where whole-microsecond ticks would quantise the median.
struct Samples {
  private var values: [Double]

  init(capacity: Int) {
    values = []
    values.reserveCapacity(capacity)
  }

  /// Runs `body` once and records how long it took, in microseconds, when `record`.
  @inline(__always)
  mutating func time(record: Bool, _ body: () -> Void) {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    if record { values.append(Samples.microseconds(elapsed)) }
  }

  static func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
  }

  /// The middle value (the mean of the two middle ones for an even count).
  var median: Double {
    precondition(!values.isEmpty, "median of no samples")
    let sorted = values.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }
}
