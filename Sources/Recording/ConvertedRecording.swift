import PatternCore

/// A recording's touch events and what replay had to correct to make them.
public struct ConvertedRecording: Sendable {
  /// The touch events in view pixels, in recorded order.
  public let events: [TouchEvent]
  /// The positions outside their axis range, clamped onto it; nil when there were none.
  public let clamped: ClampedCoordinates?
}
