import PatternCore

// Raster: patternlock's software rasteriser.
//
// What it draws: anti-aliased filled circles and rings, thick polylines with round
// caps and joins, solid and vertical-gradient rectangle fills and 8-bit glyph
// masks, straight into an XRGB8888 or RGB565 DRM dumb buffer. Nothing else: the
// lock screen needs no general paths, so there is no path filler.
//
// The split follows tiny-skia's (RazrFalcon/tiny-skia: `path` / `scan` /
// `pipeline`): geometry lives in PatternCore (`Fixed16`, `Point`, `Rect`); scan
// conversion (which pixels, at what coverage) lives in the shape files
// (`Canvas+Circle`, `Canvas+Polyline`, `CapsuleSegment`) and produces per-row spans;
// blending lives in `PixelStorage`/`ChannelMath`. The shapes reach pixels only
// through `Canvas`'s span primitives, specialised per format: `Canvas<XRGB8888>`
// and `Canvas<RGB565>`, chosen once per frame, never per pixel.
//
// Why integer coverage. Golden images must match byte for byte on x86_64 (CI) and
// aarch64 (the device); floating point differs there through fused multiply-add
// and library rounding. So everything after set-up is `Int64` in Q12 (1/4096 px,
// see `SubPixel`) and 8-bit channels, with exact `/255` rounding.
//
// The coverage model. A pixel near an edge gets the area of its unit square on
// the inside of the edge's tangent line at the pixel centre: the signed distance
// `t` from the centre to the edge (circle: `r - |p - c|`; capsule: `w/2 -
// distance to the segment`) and the edge normal's direction pick an entry of a
// ramp table built once (`rampLength` distances at 1/256 px × 65 normal
// directions, integer maths). That is exact for straight edges and within
// `1/(24r)` of a pixel for a circle of radius `r`. Rejected:
// - a plain linear 1-pixel ramp on the distance (the usual "SDF anti-aliasing"):
//   at 45 degrees it is off by up to 11 of 255 levels, the table is not;
// - supersampling (tiny-skia's `scan/path_aa.rs` uses 4x4): 16 times the work at
//   every edge pixel and only 17 coverage levels;
// - a general polygon filler with stroking by outline: path flattening, edge
//   lists and allocation, for shapes whose coverage has a closed form;
// - floats in the per-pixel path (tiny-skia's highp pipeline): see above.
//
// Spans. Each shape is walked row by row inside `shape box ∩ clip ∩ canvas`. Per
// row an integer square root gives the columns that may be touched and the
// columns that are surely fully covered (distance at least 0.708 px inside every
// edge); full runs are stored (opaque) or blended at one alpha with no coverage
// maths; only the one or two edge pixels at each end take a table lookup.
//
// Why per-polyline coverage. A translucent trail drawn segment by segment blends
// twice where neighbours overlap, leaving a darker knot at every join and at
// every crossing. Instead each row of a polyline is gathered in one byte row:
// each segment's capsule (segment plus round caps) writes `max(old, coverage)`,
// then the row is blended once. Round joins and caps come free from the capsules.
// A capsule's surely-full run is not written into the row at all: `max` with 255
// is 255, so the merged full runs are blended at the colour's own opacity straight
// onto the canvas and only the edge pixels around them go through the row.
// `max` under-estimates the union only where two edges cross inside one pixel
// (an inside corner), by less than either edge's coverage; it never double-blends.
//
// Allocation. All storage (ramp, coverage row, segment table) is made by
// `Rasterizer.init` when the mode is known; drawing allocates nothing.

/// The set-up state every shape needs, made once when the display mode is known:
/// the edge-coverage ramp, the polyline's coverage row and its segment table.
///
/// A class so that every frame's `Canvas` can share it without copying; drawing
/// writes only into its scratch storage, so one rasterizer must not be used by
/// two canvases at the same time.
public final class Rasterizer {
  /// The widest canvas this rasterizer can draw into.
  public let maximumWidth: Int
  /// The most points one polyline may have.
  public let maximumPolylinePoints: Int

  /// `ramp[angle * rampLength + step]`: coverage in 1/32768 of a pixel of the
  /// inside of an edge `step / 256` px beyond the pixel centre, for a normal whose
  /// smaller/larger component ratio is `angle / 64`.
  @usableFromInline let ramp: UnsafeMutablePointer<UInt16>
  /// `ramp` as rounded coverage bytes (`coverageByte`), for the long sides of a
  /// polyline, which want bytes: `insideBytes[angle * rampLength + step]` for an
  /// edge `step / 256` px beyond the pixel centre (`edgeCoverage` of a `t >= 0`),
  /// `outsideBytes` for the centre that far outside it (`t < 0`; not `255 -` the
  /// inside byte, as the rounding can differ by one).
  @usableFromInline let insideBytes: UnsafeMutablePointer<UInt8>
  @usableFromInline let outsideBytes: UnsafeMutablePointer<UInt8>
  /// `halfExtents[angle]`: half the pixel's extent along the normal, `(a + b)/2`, Q12.
  @usableFromInline let halfExtents: UnsafeMutablePointer<Int64>
  /// One row of polyline coverage, all zero between draws.
  @usableFromInline let coverageRow: UnsafeMutablePointer<UInt8>
  /// A polyline's segments for the current draw.
  @usableFromInline let segments: UnsafeMutablePointer<CapsuleSegment>
  /// The current polyline row's surely-full column ranges, one per segment at
  /// most: start at `2i`, end at `2i + 1`.
  @usableFromInline let fullRuns: UnsafeMutablePointer<Int>
  /// Each segment's opacity, for a polyline whose segments differ (a fading trail).
  @usableFromInline let segmentAlphas: UnsafeMutablePointer<UInt8>
  /// The blend memos' storage (see `BlendMemo`): `memoSlots` memos of 256 words
  /// and 256 tags each, one per colour, as a frame's blits take turns between the
  /// rings', the dots' and the joined dots' colours.
  @usableFromInline let memoWords: UnsafeMutablePointer<UInt32>
  @usableFromInline let memoTags: UnsafeMutablePointer<UInt32>
  /// Each memo's state between draws, four words a slot: its tag, the word
  /// underneath, the colour (as `r << 24 | g << 16 | b << 8 | a`) and the pixel
  /// size its words are in (a canvas of the other format may share the
  /// rasterizer; the size tells XRGB8888 and RGB565 apart, and a third format of
  /// either size would need a key of its own); then the slot to give the next new
  /// colour. Kept behind a
  /// pointer, as the scratch rows are: a class's stored `var` is checked for
  /// exclusive access at run time on every use.
  @usableFromInline let memoState: UnsafeMutablePointer<UInt32>

  /// Makes the tables and scratch storage (the only allocation).
  ///
  /// - Parameters:
  ///   - maximumWidth: the widest canvas to draw into (the mode's width).
  ///   - maximumPolylinePoints: the most points in one polyline (a 7x7 trail with
  ///     its finger point needs 50).
  /// - Precondition: both are positive.
  public init(maximumWidth: Int, maximumPolylinePoints: Int = 64) {
    precondition(maximumWidth > 0 && maximumPolylinePoints > 0, "rasterizer sizes must be positive")
    self.maximumWidth = maximumWidth
    self.maximumPolylinePoints = maximumPolylinePoints
    let steps = Rasterizer.angleSteps + 1
    ramp = .allocate(capacity: steps * Rasterizer.rampLength)
    insideBytes = .allocate(capacity: steps * Rasterizer.rampLength)
    outsideBytes = .allocate(capacity: steps * Rasterizer.rampLength)
    halfExtents = .allocate(capacity: steps)
    for angle in 0..<steps {
      let (a, b) = Rasterizer.normal(angle: angle)
      halfExtents[angle] = (a + b) >> 5
      for step in 0..<Rasterizer.rampLength {
        let entry = Rasterizer.halfPlaneCoverage(step: step, a: a, b: b)
        let index = angle * Rasterizer.rampLength + step
        ramp[index] = entry
        insideBytes[index] = UInt8(Rasterizer.coverageByte(Int32(entry)))
        outsideBytes[index] = UInt8(Rasterizer.coverageByte(Rasterizer.fullCoverage - Int32(entry)))
      }
    }
    coverageRow = .allocate(capacity: maximumWidth)
    coverageRow.initialize(repeating: 0, count: maximumWidth)
    segments = .allocate(capacity: maximumPolylinePoints)
    segments.initialize(repeating: CapsuleSegment(), count: maximumPolylinePoints)
    fullRuns = .allocate(capacity: 2 * maximumPolylinePoints)
    fullRuns.initialize(repeating: 0, count: 2 * maximumPolylinePoints)
    segmentAlphas = .allocate(capacity: maximumPolylinePoints)
    segmentAlphas.initialize(repeating: 0, count: maximumPolylinePoints)
    let memoSlots = Rasterizer.memoSlots
    memoWords = .allocate(capacity: 256 * memoSlots)
    memoWords.initialize(repeating: 0, count: 256 * memoSlots)
    memoTags = .allocate(capacity: 256 * memoSlots)
    memoTags.initialize(repeating: 0, count: 256 * memoSlots)
    memoState = .allocate(capacity: 4 * memoSlots + 1)
    // Tag 1 (no entry has it yet), no colour, no pixel size: a slot's first draw starts over.
    memoState.initialize(repeating: 0, count: 4 * memoSlots + 1)
    for slot in 0..<memoSlots { memoState[4 * slot] = 1 }
  }

  deinit {
    ramp.deallocate()
    insideBytes.deallocate()
    outsideBytes.deallocate()
    halfExtents.deallocate()
    coverageRow.deallocate()
    segments.deallocate()
    fullRuns.deallocate()
    segmentAlphas.deallocate()
    memoWords.deallocate()
    memoTags.deallocate()
    memoState.deallocate()
  }

  /// How many colours the blend memos remember.
  @inlinable static var memoSlots: Int { 4 }

  /// The blend memo for blending `color` into a canvas of `wordSize`-byte pixels:
  /// that colour's remembered words, or a slot of its own, emptied (the slots are
  /// given to new colours in turn).
  @inlinable func blendMemo(for color: Color, wordSize: Int) -> BlendMemo {
    let key = UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a)
    let size = UInt32(truncatingIfNeeded: wordSize)
    var slot = 0
    while slot < Rasterizer.memoSlots && !(memoState[4 &* slot &+ 2] == key && memoState[4 &* slot &+ 3] == size) {
      slot &+= 1
    }
    let fresh = slot == Rasterizer.memoSlots
    if fresh {
      let next = 4 &* Rasterizer.memoSlots
      slot = Int(memoState[next])
      memoState[next] = UInt32((slot &+ 1) % Rasterizer.memoSlots)
      memoState[4 &* slot &+ 2] = key
      memoState[4 &* slot &+ 3] = size
    }
    var memo = BlendMemo(
      words: memoWords + 256 &* slot, tags: memoTags + 256 &* slot, tag: memoState[4 &* slot],
      under: memoState[4 &* slot &+ 1], slot: slot)
    if fresh { memo.forget(under: memo.under) }
    return memo
  }

  /// A memo for a draw that remembers nothing (never read, never kept).
  @inlinable var unusedBlendMemo: BlendMemo {
    BlendMemo(words: memoWords, tags: memoTags, tag: 0, under: 0, slot: 0)
  }

  /// Takes back the memo a draw used, with what it remembered.
  @inlinable func keep(_ memo: BlendMemo) {
    memoState[4 &* memo.slot] = memo.tag
    memoState[4 &* memo.slot &+ 1] = memo.under
  }

  // MARK: Scratch access for the shapes (the pointers stay in this file).

  /// The polyline segment at `index`.
  @inlinable func segment(at index: Int) -> CapsuleSegment { segments[index] }

  /// Whether the segment at `index` can touch row `y` (without copying it out).
  @inlinable func segment(at index: Int, touchesRow y: Int) -> Bool {
    y >= segments[index].firstRow && y < segments[index].endRow
  }

  /// Stores a polyline segment at `index`.
  @inlinable func setSegment(_ segment: CapsuleSegment, at index: Int) {
    precondition(index < maximumPolylinePoints, "polyline has more points than maximumPolylinePoints")
    segments[index] = segment
  }

  /// The opacity of the polyline segment at `index`.
  @inlinable func segmentAlpha(at index: Int) -> UInt8 { segmentAlphas[index] }

  /// Stores the opacity of the polyline segment at `index`.
  @inlinable func setSegmentAlpha(_ alpha: UInt8, at index: Int) {
    precondition(index < maximumPolylinePoints, "polyline has more points than maximumPolylinePoints")
    segmentAlphas[index] = alpha
  }

  /// Records the full run `start..<end` of a polyline row at `index` (below
  /// `maximumPolylinePoints`: one per segment).
  @inlinable func setFullRun(start: Int, end: Int, at index: Int) {
    fullRuns[2 &* index] = start
    fullRuns[2 &* index &+ 1] = end
  }

  /// The full run at `index`.
  @inlinable func fullRun(at index: Int) -> (start: Int, end: Int) {
    (fullRuns[2 &* index], fullRuns[2 &* index &+ 1])
  }

  /// Sorts the first `count` full runs by start and merges those that overlap or
  /// touch; returns how many disjoint runs are left (in order, at the front).
  @inlinable func mergeFullRuns(count: Int) -> Int {
    if count < 2 { return count }
    // Insertion sort: a row crosses a handful of segments.
    for i in 1..<count {
      let run = fullRun(at: i)
      var j = i
      while j > 0 && fullRuns[2 &* (j &- 1)] > run.start {
        setFullRun(start: fullRuns[2 &* (j &- 1)], end: fullRuns[2 &* (j &- 1) &+ 1], at: j)
        j &-= 1
      }
      setFullRun(start: run.start, end: run.end, at: j)
    }
    var merged = 0
    var current = fullRun(at: 0)
    for i in 1..<count {
      let run = fullRun(at: i)
      if run.start <= current.end {
        current.end = max(current.end, run.end)
      } else {
        setFullRun(start: current.start, end: current.end, at: merged)
        merged &+= 1
        current = run
      }
    }
    setFullRun(start: current.start, end: current.end, at: merged)
    return merged &+ 1
  }

  /// Raises the coverage row at column `x` to at least `coverage`.
  @inlinable func raiseCoverage(at x: Int, to coverage: UInt8) {
    if coverage > coverageRow[x] { coverageRow[x] = coverage }
  }

  /// Raises the coverage row over `x0..<x1` to the coverage by `segment`'s capsule
  /// (radius `radius`, Q12) of each pixel on the row centred at `py`.
  ///
  /// The run is walked (`CapsuleSegment.RowWalker`: two divisions at its start,
  /// none after), which gives each pixel exactly `segment.coverage(px:py:...)`.
  /// Rejected: the per-pixel formula for runs of one or two pixels, the usual case
  /// beside a steep line; it measured about 1.5% more instructions per incremental
  /// frame at 1280x720 (callgrind) than walking every run.
  @inlinable func raiseEdgeCoverage(of segment: CapsuleSegment, from x0: Int, to x1: Int, py: Int64, radius: Int64) {
    if x0 >= x1 { return }
    var walker = CapsuleSegment.RowWalker(segment: segment, x: x0, py: py)
    // A stroke at least `edgeReach` in radius never reaches the far edge of a
    // pixel, so a side pixel's coverage is one ramp entry: looked up as a byte.
    if radius >= Rasterizer.edgeReach {
      let row = coverageRow
      let sides = Rasterizer.rampLength &* segment.sideAngle
      let inside = UnsafePointer(insideBytes + sides), outside = UnsafePointer(outsideBytes + sides)
      for x in x0..<x1 {
        let coverage = walker.nextByte(of: segment, radius: radius, inside: inside, outside: outside, rasterizer: self)
        if coverage > row[x] { row[x] = coverage }
      }
      return
    }
    for x in x0..<x1 {
      let coverage = walker.next(of: segment, radius: radius, rasterizer: self)
      if coverage > 0 { raiseCoverage(at: x, to: UInt8(Rasterizer.coverageByte(coverage))) }
    }
  }

  /// `raiseEdgeCoverage` over `x0..<x1` and then over `x2..<x3` (`x0 <= x1 <= x2
  /// <= x3`: a polyline row's edge pixels either side of its full run), with one
  /// walker that skips the run between them.
  @inlinable func raiseEdgeCoverage(
    of segment: CapsuleSegment, from x0: Int, to x1: Int, thenFrom x2: Int, to x3: Int, py: Int64, radius: Int64
  ) {
    if radius < Rasterizer.edgeReach {
      raiseEdgeCoverage(of: segment, from: x0, to: x1, py: py, radius: radius)
      raiseEdgeCoverage(of: segment, from: x2, to: x3, py: py, radius: radius)
      return
    }
    if x0 >= x1 && x2 >= x3 { return }
    var walker = CapsuleSegment.RowWalker(segment: segment, x: x0, py: py)
    // As in `raiseEdgeCoverage(of:from:to:py:radius:)`: side pixels from the byte ramps.
    let row = coverageRow
    let sides = Rasterizer.rampLength &* segment.sideAngle
    let inside = UnsafePointer(insideBytes + sides), outside = UnsafePointer(outsideBytes + sides)
    for x in x0..<x1 {
      let coverage = walker.nextByte(of: segment, radius: radius, inside: inside, outside: outside, rasterizer: self)
      if coverage > row[x] { row[x] = coverage }
    }
    if x2 >= x3 { return }
    walker.skip(x2 &- x1, of: segment)
    for x in x2..<x3 {
      let coverage = walker.nextByte(of: segment, radius: radius, inside: inside, outside: outside, rasterizer: self)
      if coverage > row[x] { row[x] = coverage }
    }
  }

  /// `raiseEdgeCoverage` with each coverage scaled by an opacity first, as a
  /// translucent colour would scale it when blending.
  @inlinable func raiseEdgeCoverage(
    of segment: CapsuleSegment, from x0: Int, to x1: Int, py: Int64, radius: Int64, alpha: UInt8
  ) {
    if x0 >= x1 { return }
    var walker = CapsuleSegment.RowWalker(segment: segment, x: x0, py: py)
    for x in x0..<x1 {
      let coverage = walker.next(of: segment, radius: radius, rasterizer: self)
      if coverage > 0 {
        let scaled = ChannelMath.divide255(Rasterizer.coverageByte(coverage) &* UInt32(alpha))
        if scaled > 0 { raiseCoverage(at: x, to: UInt8(scaled)) }
      }
    }
  }

  /// Zeroes the coverage row over `x0..<x1` (it is all zero between draws).
  @inlinable func clearCoverage(from x0: Int, to x1: Int) {
    (coverageRow + x0).update(repeating: 0, count: x1 - x0)
  }

  /// Ramp entries per direction: distances 0 to 181/256 px; from 181/256 (beyond
  /// half the diagonal, 0.7071 px, to the nearest 1/256) a pixel is fully inside.
  @inlinable static var rampLength: Int { 182 }
  /// Directions in the ramp, minus one: the ratio of the normal's components in
  /// steps of 1/64.
  @inlinable static var angleSteps: Int { 64 }
  /// Full coverage in ramp units.
  @inlinable static var fullCoverage: Int32 { 32768 }
  /// How far (Q12) an edge can be from a pixel centre and still cut the pixel:
  /// 2900/4096 px, just over half the diagonal (0.7071 px) plus rounding.
  @inlinable static var edgeReach: Int64 { 2900 }

  /// The ramp's direction index for a normal with components of magnitude `u`, `v`.
  @inlinable static func angleIndex(_ u: Int64, _ v: Int64) -> Int {
    let (small, large) = u < v ? (u, v) : (v, u)
    if large == 0 { return 0 }
    return Int((small &* 64 &+ large / 2) / large)
  }

  /// The coverage (0 to `fullCoverage`) of a pixel whose centre is `t` (Q12) inside
  /// an edge (negative: outside) with normal direction `angle`.
  @inlinable func edgeCoverage(_ t: Int64, angle: Int) -> Int32 {
    let length = Rasterizer.rampLength
    if t >= 0 {
      let step = Int((t &+ 8) >> 4)
      if step >= length { return Rasterizer.fullCoverage }
      return Int32(ramp[angle &* length &+ step])
    }
    let step = Int((8 &- t) >> 4)
    if step >= length { return 0 }
    return Rasterizer.fullCoverage &- Int32(ramp[angle &* length &+ step])
  }

  /// `edgeCoverage` for the edge of a disc of radius `radius` (Q12), corrected
  /// for the edge's curvature.
  ///
  /// The tangent line over-estimates a convex disc by the sliver between tangent
  /// and arc: over a chord of length `L` inside the pixel about `L^3 / 24r`, as if
  /// the edge were `L^2 / 24r` nearer the pixel centre. For a normal `(a, b)`,
  /// `a >= b`, the chord is `1/a` where the edge crosses two opposite sides and
  /// `u / ab` where it cuts a corner `u` from the pixel's extreme (`u = h - |t|`,
  /// `h = (a + b)/2`). The shift is 0.4 of 255 levels for a 10-pixel radius and
  /// about 10 for a 1-pixel round cap; it is zero where a pixel is wholly inside
  /// or outside, so the span shortcuts stay exact.
  @inlinable func curvedEdgeCoverage(_ t: Int64, angle: Int, radius: Int64) -> Int32 {
    let u = halfExtents[angle] &- (t < 0 ? -t : t)
    if radius <= 0 || u <= 0 { return edgeCoverage(t, angle: angle) }
    let k = Int64(angle)
    let normSquared = 4096 &+ k &* k  // (1 + (b/a)^2) * 4096
    // L^2 in px^2 times 4096 * 4096: min(1 + ρ², u² (1 + ρ²)² / ρ²), ρ = k/64.
    var chordSquared: Int64 = 4096 &* normSquared
    if k > 0 {
      let corner = u &* u / 4096 &* normSquared / (k &* k) &* normSquared
      chordSquared = min(chordSquared, corner)
    }
    let shift = chordSquared / (24 &* radius)
    return edgeCoverage(t &- shift, angle: angle)
  }

  /// Coverage in ramp units as an 8-bit coverage, rounded.
  @inlinable static func coverageByte(_ coverage: Int32) -> UInt32 {
    UInt32((coverage &* 255 &+ 16384) >> 15)
  }

  /// The unit normal (1.16 fixed point, larger component first) for a ramp direction.
  static func normal(angle: Int) -> (a: Int64, b: Int64) {
    let k = Int64(angle), n = Int64(angleSteps)
    // |(n, k)| in 1.16 units of n: sqrt(n^2 + k^2) * 65536.
    let length = Int64(integerSquareRoot(UInt64(n * n + k * k) << 32))
    return (roundedDivision(n << 32, length), roundedDivision(k << 32, length))
  }

  /// The area (in 1/32768) of a unit square, centred `step / 256` px inside a
  /// straight edge with unit normal `(a, b)`, `a >= b >= 0` (1.16), that lies inside.
  ///
  /// The square's extent along the normal is `±(a + b)/2`. Within `(a - b)/2` of the
  /// centre the edge crosses two opposite sides and the area grows linearly,
  /// `1/2 + t/a`; beyond it the outside is a corner triangle, `(h - t)^2 / 2ab` with
  /// `h = (a + b)/2`. Computed in units of 1/65536 px, so `2T` below is `2t`.
  static func halfPlaneCoverage(step: Int, a: Int64, b: Int64) -> UInt16 {
    let twoT = Int64(step) * 512
    let full = Int64(fullCoverage)
    if twoT >= a + b { return UInt16(full) }
    if twoT <= a - b { return UInt16(full / 2 + roundedDivision(twoT * full / 2, a)) }
    let twoU = a + b - twoT
    return UInt16(full - roundedDivision(twoU * twoU * (full / 8), a * b))
  }
}
