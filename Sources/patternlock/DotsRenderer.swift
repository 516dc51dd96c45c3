import PatternCore

/// Draws the grid's dots into a panel-oriented XRGB8888 shadow buffer: each dot a
/// disc, joined dots inside a highlighted ring.
///
/// This is the event loop's interim renderer until the Scene module (the full lock
/// screen with lines, prompt and anti-aliasing) is wired in; it keeps the same
/// contract (draw into a caller-owned buffer, return the damaged panel rectangle) so
/// the swap is one line in `RunCommand`. Integer and 16.16 maths only; allocates
/// nothing per frame.
struct DotsRenderer {
  static let background: UInt32 = 0x0010_1418
  static let dotColour: UInt32 = 0x00B0_B8C0
  static let ringColour: UInt32 = 0x0030_90E0
  static let wrongColour: UInt32 = 0x00E0_4040

  let layout: GridLayout
  /// Dots drawn as joined the last time (a bit per dot).
  private var drawn: UInt64 = 0
  private var drawnWrong = false
  private var first = true

  init(layout: GridLayout) { self.layout = layout }

  /// Brings `shadow` up to date with the joined dots.
  ///
  /// - Returns: the panel rectangle that changed (empty when nothing did).
  mutating func render(joined: UInt64, wrong: Bool, into shadow: inout [UInt32]) -> Rect {
    let transform = layout.transform
    let (w, h) = (transform.panelWidth, transform.panelHeight)
    var damage = Rect.empty
    if first {
      for i in shadow.indices { shadow[i] = DotsRenderer.background }
      damage = Rect(x: 0, y: 0, width: w, height: h)
    }
    for dot in 1...layout.dotCount {
      let bit: UInt64 = 1 << UInt64(dot - 1)
      let isJoined = joined & bit != 0
      guard first || isJoined != (drawn & bit != 0) || (isJoined && wrong != drawnWrong) else { continue }
      let centre = transform.panelPoint(fromView: layout.centre(of: dot))
      let ring = layout.ringRadius
      let box = Rect(
        x: (centre.x - ring).floor - 1, y: (centre.y - ring).floor - 1,
        width: (ring * 2).ceil + 3, height: (ring * 2).ceil + 3
      ).intersection(Rect(x: 0, y: 0, width: w, height: h))
      let ringFill = isJoined ? (wrong ? DotsRenderer.wrongColour : DotsRenderer.ringColour) : DotsRenderer.background
      let ringSquared = Int64(ring.raw) * Int64(ring.raw)
      let dotSquared = Int64(layout.dotRadius.raw) * Int64(layout.dotRadius.raw)
      for y in box.y..<box.maxY {
        for x in box.x..<box.maxX {
          let p = Point(x: Fixed16(x) + .half, y: Fixed16(y) + .half)
          let d = p.squaredDistance(to: centre)
          shadow[y * w + x] = d <= dotSquared ? DotsRenderer.dotColour : (d <= ringSquared ? ringFill : DotsRenderer.background)
        }
      }
      damage = damage.union(box)
    }
    drawn = joined
    drawnWrong = wrong
    first = false
    return damage
  }
}
