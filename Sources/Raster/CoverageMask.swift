import PatternCore

/// A shape's anti-aliased coverage, worked out once and blended many times: the
/// lock screen's nine rings and dots never move, so each frame blends their masks
/// instead of taking an integer square root and two ramp lookups per edge pixel.
///
/// The mask is made by drawing the shape with the ordinary `Canvas` code, in opaque
/// white over black in a scratch XRGB8888 canvas the size of the shape's box, and
/// keeping the blue channel: white over black at opacity `a` blends to exactly `a`,
/// and opaque runs store 255, so each byte is the opacity that drawing would have
/// given the pixel. `Canvas.blit(_:color:clip:)` turns byte `m` into opacity
/// `m * alpha / 255`, the same sum the shape's own code does, so blending a mask
/// gives the same bytes as drawing the shape, in either pixel format and under any
/// clip (the golden and damage tests hold it to that). Coverage depends only on a
/// pixel's position relative to the shape, and the box moves by whole pixels, so
/// the scratch canvas sees the same fractions as the frame.
///
/// Each row is also kept as `runs` (see `Run`): the blit visits only the non-zero
/// stretches and fills the all-255 ones at the colour's opacity, which is the same
/// sum per pixel (`255 * alpha / 255` is exactly `alpha`), so the bytes match a
/// per-pixel blend.
///
/// Rejected: caching finished pixels (they depend on what lies underneath) and
/// sharing one mask between dots (their centres have different fractions at most
/// sizes, so their masks differ).
public struct CoverageMask: Sendable {
  /// Where the mask goes on the canvas; one byte per pixel of it, row by row.
  public let rect: Rect
  /// Opacity per pixel, 0-255, `rect.width` bytes per row.
  public let bytes: [UInt8]
  /// Every row's runs, top row first: row `r`'s are `runs[rowRuns[r]..<rowRuns[r + 1]]`.
  @usableFromInline let runs: [Run]
  /// `rect.height + 1` indices into `runs` (empty for an empty mask).
  @usableFromInline let rowRuns: [Int32]
  /// The largest square about the mask's middle pixel whose bytes are all 255
  /// (empty when that pixel's is not): blitted in an opaque colour, every pixel
  /// there takes the colour whatever lies underneath, so what is drawn under it
  /// first need not be (see `LineClips`).
  public let opaqueCore: Rect

  /// The mask of a filled circle (`Canvas.fillCircle`).
  public init(circleAt center: Point, radius: Fixed16, rasterizer: Rasterizer) {
    self.init(box: ShapeBounds.circle(center: center, radius: radius), center: center, rasterizer: rasterizer) {
      canvas, origin in
      canvas.fillCircle(center: origin, radius: radius, color: .white, clip: canvas.bounds)
    }
  }

  /// The mask of a ring (`Canvas.strokeCircle`).
  public init(ringAt center: Point, radius: Fixed16, strokeWidth: Fixed16, rasterizer: Rasterizer) {
    self.init(
      box: ShapeBounds.ring(center: center, radius: radius, strokeWidth: strokeWidth), center: center,
      rasterizer: rasterizer
    ) { canvas, origin in
      canvas.strokeCircle(center: origin, radius: radius, strokeWidth: strokeWidth, color: .white, clip: canvas.bounds)
    }
  }

  /// Draws a shape whose box is `box` into a scratch canvas `box`'s size, with the
  /// shape's centre moved by `-box.origin`.
  private init(box: Rect, center c: Point, rasterizer: Rasterizer, draw: (Canvas<XRGB8888>, Point) -> Void) {
    guard !box.isEmpty else {
      self.init(rect: box, bytes: [])
      return
    }
    precondition(box.width <= rasterizer.maximumWidth, "shape wider than the rasterizer's maximumWidth")
    let origin = Point(x: c.x - Fixed16(box.x), y: c.y - Fixed16(box.y))
    var scratch = [UInt32](repeating: XRGB8888.word(for: .black), count: box.width * box.height)
    scratch.withUnsafeMutableBytes { pixels in
      draw(Canvas<XRGB8888>(pixels: pixels, width: box.width, height: box.height,
                            bytesPerRow: box.width * 4, rasterizer: rasterizer), origin)
    }
    self.init(rect: box, bytes: scratch.map { UInt8(truncatingIfNeeded: $0) })
  }

  /// A mask from its bytes, `rect.width` per row (nothing for an empty `rect`).
  ///
  /// - Precondition: `bytes` holds exactly one byte per pixel of `rect`.
  init(rect: Rect, bytes: [UInt8]) {
    let width = rect.isEmpty ? 0 : rect.width, height = rect.isEmpty ? 0 : rect.height
    precondition(bytes.count == width * height, "mask bytes do not match the mask's rectangle")
    self.rect = rect
    self.bytes = bytes
    var runs: [Run] = []
    var rowRuns: [Int32] = height > 0 ? [0] : []
    for row in 0..<height {
      CoverageMask.appendRuns(of: bytes, from: row * width, width: width, to: &runs)
      rowRuns.append(Int32(truncatingIfNeeded: runs.count))
    }
    self.runs = runs
    self.rowRuns = rowRuns
    opaqueCore = CoverageMask.opaqueCore(of: bytes, in: rect)
  }

  /// One mask per centre, each as `drawing` makes it there, but drawn only once for
  /// every place of a centre within its pixel: a centre whose shape sits in its box
  /// (`box`) exactly as an earlier one's does gets that mask `moved`, the same bytes.
  /// A grid whose dots lie on whole pixels draws its rings once instead of nine times,
  /// before the lock's first frame.
  public static func repeated(
    at centres: [Point], box: (Point) -> Rect, drawing: (Point) -> CoverageMask
  ) -> [CoverageMask] {
    var masks: [CoverageMask] = []
    masks.reserveCapacity(centres.count)
    for (i, centre) in centres.enumerated() {
      let place = box(centre)
      let earlier = (0..<i).first { j in
        let other = box(centres[j])
        return other.width == place.width && other.height == place.height
          && centres[j].x - Fixed16(other.x) == centre.x - Fixed16(place.x)
          && centres[j].y - Fixed16(other.y) == centre.y - Fixed16(place.y)
      }
      if let earlier {
        masks.append(masks[earlier].moved(x: place.x - masks[earlier].rect.x, y: place.y - masks[earlier].rect.y))
      } else {
        masks.append(drawing(centre))
      }
    }
    return masks
  }

  /// The same mask `dx`, `dy` whole pixels away: the bytes drawing the shape there
  /// gives, as coverage depends only on a pixel's place relative to the shape. Shares
  /// the bytes and runs, so nothing is allocated (a moved grid's rings, per frame).
  public func moved(x dx: Int, y dy: Int) -> CoverageMask {
    if dx == 0 && dy == 0 { return self }
    return CoverageMask(
      rect: Rect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height), bytes: bytes, runs: runs,
      rowRuns: rowRuns,
      opaqueCore: opaqueCore.isEmpty
        ? opaqueCore
        : Rect(x: opaqueCore.x + dx, y: opaqueCore.y + dy, width: opaqueCore.width, height: opaqueCore.height))
  }

  private init(rect: Rect, bytes: [UInt8], runs: [Run], rowRuns: [Int32], opaqueCore: Rect) {
    self.rect = rect
    self.bytes = bytes
    self.runs = runs
    self.rowRuns = rowRuns
    self.opaqueCore = opaqueCore
  }

  /// `opaqueCore` of a mask's bytes: the square grown a pixel each side at a time
  /// while its new border is all 255.
  static func opaqueCore(of bytes: [UInt8], in rect: Rect) -> Rect {
    if rect.isEmpty { return .empty }
    let cx = rect.width / 2, cy = rect.height / 2
    func opaque(_ x: Int, _ y: Int) -> Bool {
      x >= 0 && x < rect.width && y >= 0 && y < rect.height && bytes[y * rect.width + x] == 255
    }
    if !opaque(cx, cy) { return .empty }
    var half = 0
    grow: while true {
      let next = half + 1
      for d in -next...next {
        if !opaque(cx + d, cy - next) || !opaque(cx + d, cy + next) || !opaque(cx - next, cy + d)
          || !opaque(cx + next, cy + d) {
          break grow
        }
      }
      half = next
    }
    return Rect(x: rect.x + cx - half, y: rect.y + cy - half, width: 2 * half + 1, height: 2 * half + 1)
  }

  /// A full run shorter than this is left inside a mixed run: below it, ending one
  /// run and starting two more costs more than blending the few pixels.
  static var shortestFullRun: Int { 4 }
  /// A zero gap shorter than this is left inside a mixed run (whose blend skips
  /// zero bytes anyway) rather than splitting it.
  static var shortestGap: Int { 4 }

  /// Appends the runs of the row of `width` bytes at `bytes[first...]`: all-255
  /// stretches of at least `shortestFullRun` as full runs, everything else that is
  /// not zero as mixed runs, zero stretches of at least `shortestGap` (and at the
  /// ends of the row) left out.
  static func appendRuns(of bytes: [UInt8], from first: Int, width: Int, to runs: inout [Run]) {
    var mixedStart: Int? = nil
    var x = 0
    while x < width {
      let value = bytes[first + x]
      var end = x + 1
      if value == 0 || value == 255 {
        while end < width && bytes[first + end] == value { end += 1 }
      }
      if value == 255 && end - x >= shortestFullRun {
        if let start = mixedStart { runs.append(Run(start: start, end: x, full: false)) }
        mixedStart = nil
        runs.append(Run(start: x, end: end, full: true))
      } else if value == 0 {
        if let start = mixedStart, end - x >= shortestGap || end == width {
          runs.append(Run(start: start, end: x, full: false))
          mixedStart = nil
        }
      } else if mixedStart == nil {
        mixedStart = x
      }
      x = end
    }
    if let start = mixedStart { runs.append(Run(start: start, end: width, full: false)) }
  }
}
