import Input
import PatternCore

/// The lock's state between events: the gesture tracker, the dots entered by
/// keyboard, the last outcome, and whether the screen must be drawn again.
///
/// Pure state: the event loop feeds it `InputEvent`s and timer expiries and reads
/// what to draw, so it runs the same with live input and in tests.
struct LockApp {
  private(set) var tracker: GestureTracker
  /// Dots entered with the keyboard (digits 1-9).
  private(set) var keyed = DotSequence()
  /// The development-only pattern to compare with (`--pattern`), or nil.
  let expected: DotSequence?
  /// The last outcome's dots, shown until the result timer fires.
  private(set) var shown = DotSequence()
  /// Whether the shown dots were a wrong pattern.
  private(set) var wrong = false
  /// Whether the screen needs drawing.
  var dirty = true
  /// Set when the expected pattern was entered.
  private(set) var unlocked = false
  /// How long a finished pattern stays on screen, in microseconds.
  static let resultMicroseconds: UInt64 = 1_000_000

  init(layout: GridLayout, expected: DotSequence?) {
    tracker = GestureTracker(layout: layout)
    self.expected = expected
  }

  /// The dots to draw as joined, as a bit mask (bit n-1 for dot n).
  var joined: UInt64 {
    if tracker.isActive { return tracker.trail.bitmask }
    if !keyed.isEmpty { return keyed.bitmask }
    return shown.bitmask
  }

  /// Applies one input event.
  ///
  /// - Returns: a finished pattern, when this event finished one.
  mutating func handle(_ event: InputEvent) -> GestureOutcome? {
    switch event {
    case .touch(let touch):
      let before = tracker.trail.count
      let outcome = tracker.handle(touch)
      if tracker.trail.count != before || outcome != nil { dirty = true }
      if tracker.isActive && !shown.isEmpty {
        shown.removeAll()
        wrong = false
        dirty = true
      }
      if let outcome { finish(outcome.dots) }
      return outcome
    case .key(let action):
      return key(action)
    case .cursor, .deviceAdded, .deviceRemoved:
      return nil
    }
  }

  /// The result timer fired: clear the shown pattern.
  mutating func resultTimeout() {
    guard !shown.isEmpty else { return }
    shown.removeAll()
    wrong = false
    dirty = true
  }

  /// Whether `dots` is the expected pattern (always false without `--pattern`).
  func matches(_ dots: DotSequence) -> Bool { expected.map { $0 == dots } ?? false }

  private mutating func key(_ action: KeyAction) -> GestureOutcome? {
    dirty = true
    switch action {
    case .dot(let n):
      guard n <= tracker.layout.dotCount, !keyed.contains(n) else { return nil }
      shown.removeAll()
      wrong = false
      _ = keyed.append(n)
    case .removeLast:
      if !keyed.isEmpty { keyed.removeLast() }
    case .clear:
      keyed.removeAll()
    case .submit:
      guard !keyed.isEmpty else { return nil }
      let dots = keyed
      keyed.removeAll()
      let result: GestureResult = dots.count >= tracker.minimumDots ? .complete : .tooShort
      finish(dots)
      return GestureOutcome(dots: dots, result: result, timeMicroseconds: 0)
    }
    return nil
  }

  private mutating func finish(_ dots: DotSequence) {
    shown = dots
    wrong = expected != nil && !matches(dots)
    if matches(dots) { unlocked = true }
    dirty = true
  }
}
