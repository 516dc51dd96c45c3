/// A pattern entered one tap per dot (`input = tap` or `both`), for people who cannot
/// drag a finger across the grid.
///
/// Rules (documented in patternlock(1) and patternlock.conf(5)):
/// - A tap on a dot not yet joined joins it, with the same gap fill as a drag (1 then
///   3 joins 2 first); a tap on an earlier dot is ignored: a dot is never joined twice.
/// - A tap on the last dot again confirms the pattern at once.
/// - So does a pause: `pauseMicroseconds` after the last tap ended with no finger
///   down since. The pause is long, as whoever needs taps may need time between
///   them, and confirming early costs an attempt.
///
/// The clock is the events' (the device's or a recording's), so a replay confirms at
/// the same moment as the device.
public struct TapEntry: Sendable {
  /// How long after the last tap the entry confirms itself.
  public static let pauseMicroseconds: UInt64 = 3_000_000

  /// The dots joined so far.
  public private(set) var dots = DotSequence()
  /// When the entry confirms itself if no finger comes down first; nil while a
  /// finger is down or the entry is empty.
  public private(set) var confirmationDue: UInt64?

  public init() {}

  /// Takes a tap on `dot` that ended at `time`.
  ///
  /// - Returns: the finished pattern when the tap confirmed it (the last dot again).
  public mutating func tap(_ dot: Int, at time: UInt64, layout: GridLayout, minimumDots: Int) -> GestureOutcome? {
    if dot == dots.last { return confirm(at: time, minimumDots: minimumDots) }
    dots.join(dot, on: layout)
    confirmationDue = time + TapEntry.pauseMicroseconds
    return nil
  }

  /// Stops the pause from confirming while a finger is down: the touch may be a tap.
  public mutating func hold() {
    confirmationDue = nil
  }

  /// Starts the pause again after a touch that joined nothing ended at `time`.
  public mutating func resume(at time: UInt64) {
    confirmationDue = dots.isEmpty ? nil : time + TapEntry.pauseMicroseconds
  }

  /// Confirms the entry when its pause is over at `time`.
  ///
  /// - Returns: the finished pattern, timed at the end of the pause; nil when the
  ///   pause is not over or nothing was tapped.
  public mutating func confirmIfPaused(at time: UInt64, minimumDots: Int) -> GestureOutcome? {
    guard let due = confirmationDue, time >= due else { return nil }
    return confirm(at: due, minimumDots: minimumDots)
  }

  /// Forgets the taps (and wipes them: see `DotSequence.removeAll`).
  public mutating func clear() {
    dots.removeAll()
    confirmationDue = nil
  }

  private mutating func confirm(at time: UInt64, minimumDots: Int) -> GestureOutcome? {
    guard !dots.isEmpty else { return nil }
    let finished = dots
    clear()
    return GestureOutcome(dots: finished, result: finished.count >= minimumDots ? .complete : .tooShort, timeMicroseconds: time)
  }
}
