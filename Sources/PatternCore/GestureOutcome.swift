/// How a finished gesture is classed before any secret is consulted.
public enum GestureResult: Sendable, Equatable {
  /// At least the minimum number of dots: worth checking against the secret.
  case complete
  /// Fewer dots than the minimum: shown as "too short", never counted as a failure.
  case tooShort

  /// The name used in JSON output: `complete`, `too-short`.
  public var name: String {
    switch self {
    case .complete: return "complete"
    case .tooShort: return "too-short"
    }
  }
}

/// A gesture that ended with the owning finger lifting.
public struct GestureOutcome: Sendable, Equatable {
  /// The dots joined, in order.
  public var dots: DotSequence
  public var result: GestureResult
  /// When the finger lifted, on the event clock.
  public var timeMicroseconds: UInt64

  public init(dots: DotSequence, result: GestureResult, timeMicroseconds: UInt64) {
    self.dots = dots
    self.result = result
    self.timeMicroseconds = timeMicroseconds
  }
}
