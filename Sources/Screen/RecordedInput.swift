import PatternCore

/// A recording's touch events as an input source: each is due at its own timestamp,
/// which is the clock `RecordedPlayback` runs on.
public struct RecordedInput: InputSource {
  public typealias Failure = NoFailure
  private let events: [TouchEvent]
  private var next = 0

  /// - Parameter events: touch events in time order (`ConvertedRecording`).
  public init(_ events: [TouchEvent]) { self.events = events }

  public var pollDescriptor: Int32 { -1 }
  public var nextEventTime: UInt64? { next < events.count ? events[next].timeMicroseconds : nil }
  /// The first event's time: where the recording's clock starts.
  public var startTime: UInt64 { events.first?.timeMicroseconds ?? 0 }

  public mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) {
    while next < events.count && events[next].timeMicroseconds <= now {
      let event = events[next]
      next += 1
      handle(.touch(event))
    }
  }
}

/// The failure of something that cannot fail (a recording already in memory).
public enum NoFailure: DescribedError {
  public var message: String {
    switch self {}
  }
}
