import PatternCore

/// Where the finger is on each benchmark frame: it circles the last selected dot at
/// three quarters of the dot pitch, 1/120 of a turn per frame (cairo_scene.c's
/// `finger_at`), so consecutive frames move it a few pixels (5.7 px at 800x480).
///
/// The 120 positions are worked out once in `Double` (set-up only; the renderer
/// gets 16.16 fixed point), with a Taylor series because the bench imports neither
/// Foundation nor Glibc.
struct FingerPath {
  /// Frames per turn.
  static let steps = 120
  private let positions: [Point]

  /// - Parameters:
  ///   - centre: the dot the finger circles.
  ///   - pitch: the distance between neighbouring dot centres.
  init(centre: Point, pitch: Fixed16) {
    let radius = 0.75 * Double(pitch.raw) / 65536
    let cx = Double(centre.x.raw) / 65536, cy = Double(centre.y.raw) / 65536
    var positions: [Point] = []
    for frame in 0..<FingerPath.steps {
      let angle = Double(frame) * 2 * Double.pi / Double(FingerPath.steps)
      positions.append(Point(x: FingerPath.fixed(cx + radius * FingerPath.cosine(angle)),
                             y: FingerPath.fixed(cy + radius * FingerPath.sine(angle))))
    }
    self.positions = positions
  }

  /// The finger on frame `frame` (any whole number; the path repeats every turn).
  func position(frame: Int) -> Point {
    positions[((frame % FingerPath.steps) + FingerPath.steps) % FingerPath.steps]
  }

  static func fixed(_ value: Double) -> Fixed16 {
    Fixed16(raw: Int32((value * 65536).rounded()))
  }

  /// sin(x) for x in [0, 2π): reduced to [-π, π], then 20 Taylor terms (far below
  /// 1/65536 of error there).
  static func sine(_ x: Double) -> Double {
    let t = x > Double.pi ? x - 2 * Double.pi : x
    var term = t, sum = t
    for n in 1..<20 {
      term *= -t * t / Double((2 * n) * (2 * n + 1))
      sum += term
    }
    return sum
  }

  static func cosine(_ x: Double) -> Double {
    sine(x + Double.pi / 2 >= 2 * Double.pi ? x + Double.pi / 2 - 2 * Double.pi : x + Double.pi / 2)
  }
}
