import PatternCore

/// What each of the two scan-out buffers is missing.
///
/// With double buffering the back buffer last received a frame two presents ago, so
/// before it is shown it needs this frame's damage *and* the previous frame's. Each
/// buffer keeps the union of the damage presented since it was last written; both
/// start with the whole screen, so the first frame is copied in full into each.
public struct DamageTracker: Sendable {
  /// The stale area of buffer 0 and buffer 1.
  public private(set) var stale: (Rect, Rect)
  private let screen: Rect

  /// Both buffers start stale over the whole screen.
  public init(width: Int, height: Int) {
    screen = Rect(x: 0, y: 0, width: width, height: height)
    stale = (screen, screen)
  }

  /// Adds `damage` to both buffers and returns what `buffer` must receive now, which
  /// then counts as up to date.
  public mutating func take(_ damage: Rect, for buffer: Int) -> Rect {
    precondition(buffer == 0 || buffer == 1, "there are two buffers")
    let d = damage.intersection(screen)
    stale = (stale.0.union(d), stale.1.union(d))
    if buffer == 0 {
      defer { stale.0 = .empty }
      return stale.0
    } else {
      defer { stale.1 = .empty }
      return stale.1
    }
  }

  /// Marks both buffers stale over the whole screen (after a mode set or hotplug,
  /// when their contents can no longer be trusted).
  public mutating func invalidate() { stale = (screen, screen) }

  /// Records that `buffer` received the whole frame outside `take` (switching the
  /// output on again): it is up to date, and the other buffer, whose content is older
  /// than anything the damage so far describes, is stale over the whole screen.
  public mutating func wroteWholeFrame(into buffer: Int) {
    precondition(buffer == 0 || buffer == 1, "there are two buffers")
    stale = buffer == 0 ? (.empty, screen) : (screen, .empty)
  }
}
