import PatternCore
import XCTest

@testable import Raster

/// `CapsuleSegment.RowWalker` steps the side distance along a row instead of
/// dividing per pixel; every pixel it gives must be the frozen per-pixel formula's
/// (`ReferenceCapsuleCoverage`) exactly, or the golden images would move.
final class RowWalkerTests: XCTestCase {
  /// Walks row `y` of `segment` over `x0..<x1` and returns the first pixel whose
  /// walked coverage differs from the reference (or from `coverage(px:py:...)`).
  private func firstMismatch(
    _ segment: CapsuleSegment, radius: Int64, y: Int, from x0: Int, to x1: Int, rasterizer: Rasterizer
  ) -> String? {
    let py = SubPixel.centre(y)
    var walker = CapsuleSegment.RowWalker(segment: segment, x: x0, py: py)
    for x in x0..<x1 {
      let walked = walker.next(of: segment, radius: radius, rasterizer: rasterizer)
      let px = SubPixel.centre(x)
      let reference = ReferenceCapsuleCoverage.coverage(of: segment, px: px, py: py, radius: radius, rasterizer: rasterizer)
      let formula = segment.coverage(px: px, py: py, radius: radius, rasterizer: rasterizer)
      if walked != reference || formula != reference {
        return "segment (\(segment.ax), \(segment.ay))-(\(segment.bx), \(segment.by)) Q12, radius \(radius), "
          + "pixel (\(x), \(y)) walked from \(x0): walker \(walked), coverage() \(formula), reference \(reference)"
      }
    }
    return nil
  }

  /// A segment as `strokePolyline` makes it, from Q12 end points and a Q12 radius.
  private func segment(ax: Int64, ay: Int64, bx: Int64, by: Int64, radius: Int64) -> CapsuleSegment {
    CapsuleSegment(
      ax: ax, ay: ay, bx: bx, by: by, reach: radius &+ 4096,
      outerRadius: radius &+ Rasterizer.edgeReach, innerRadius: radius &- Rasterizer.edgeReach)
  }

  func testWalkerEqualsPerPixelFormulaOnRandomSegmentsAcrossAPanel() {
    let rasterizer = Rasterizer(maximumWidth: 8)
    var random = SeededRandom(state: 0x5EED_CA95)
    for _ in 0..<1500 {
      // End points anywhere on (and just off) a 1920x1080 panel, at 1/4096 px;
      // some segments horizontal, vertical or of zero length (a dot).
      let ax = random.int(-200_000...7_900_000), ay = random.int(-200_000...4_500_000)
      var bx = ax &+ random.int(-1_200_000...1_200_000), by = ay &+ random.int(-1_200_000...1_200_000)
      switch random.next() % 8 {
      case 0: by = ay
      case 1: bx = ax
      case 2: (bx, by) = (ax, ay)
      default: break
      }
      let radius = random.int(256...131_072)  // 1/16 px to 32 px
      let s = segment(ax: ax, ay: ay, bx: bx, by: by, radius: radius)
      for _ in 0..<4 {
        let y = Int(random.int(Int64(s.firstRow)...Int64(s.endRow - 1)))
        // The whole row the capsule may touch, from a random start beyond it.
        let x0 = s.columns.first - Int(random.int(0...3))
        if let failure = firstMismatch(s, radius: radius, y: y, from: x0, to: s.columns.end, rasterizer: rasterizer) {
          XCTFail(failure)
          return
        }
      }
    }
  }

  func testWalkerEqualsPerPixelFormulaForEveryQuarterPixelEndPointNearAnother() {
    let rasterizer = Rasterizer(maximumWidth: 8)
    // a fixed off-grid; b on every 1/4-px position of an 8x8 px box around it, so
    // every direction, every short length and the zero length are walked.
    let ax: Int64 = 10 * 4096 + 1234, ay: Int64 = 10 * 4096 + 3001
    for radius: Int64 in [1024, 3277, 14_336] {
      for j in 0..<32 {
        for i in 0..<32 {
          let bx = 6 * 4096 + Int64(i) * 1024, by = 6 * 4096 + Int64(j) * 1024
          let s = segment(ax: ax, ay: ay, bx: bx, by: by, radius: radius)
          for y in s.firstRow..<s.endRow {
            if let failure = firstMismatch(s, radius: radius, y: y, from: s.columns.first, to: s.columns.end, rasterizer: rasterizer) {
              XCTFail(failure)
              return
            }
          }
        }
      }
    }
  }

  /// The byte path (`nextByte`, the byte ramps) and `skip` must give the bytes that
  /// `next` and stepping pixel by pixel give, or the polyline's edges would move.
  func testByteWalkerAndSkipEqualTheCoverageWalkerOnRandomSegments() {
    let rasterizer = Rasterizer(maximumWidth: 8)
    var random = SeededRandom(state: 0xB17E_5EED)
    for _ in 0..<1500 {
      let ax = random.int(-200_000...7_900_000), ay = random.int(-200_000...4_500_000)
      var bx = ax &+ random.int(-1_200_000...1_200_000), by = ay &+ random.int(-1_200_000...1_200_000)
      switch random.next() % 8 {
      case 0: by = ay
      case 1: bx = ax
      case 2: (bx, by) = (ax, ay)
      default: break
      }
      // The byte path is for strokes at least `edgeReach` in radius.
      let radius = random.int(Rasterizer.edgeReach...131_072)
      let s = segment(ax: ax, ay: ay, bx: bx, by: by, radius: radius)
      let sides = Rasterizer.rampLength * s.sideAngle
      let inside = UnsafePointer(rasterizer.insideBytes + sides), outside = UnsafePointer(rasterizer.outsideBytes + sides)
      for _ in 0..<4 {
        let y = Int(random.int(Int64(s.firstRow)...Int64(s.endRow - 1)))
        let py = SubPixel.centre(y)
        let x0 = s.columns.first - Int(random.int(0...3)), x1 = s.columns.end
        let gap = Int(random.int(0...Int64(max(0, x1 - x0))))
        var reference = CapsuleSegment.RowWalker(segment: s, x: x0, py: py)
        var bytes = CapsuleSegment.RowWalker(segment: s, x: x0, py: py)
        var skipping = CapsuleSegment.RowWalker(segment: s, x: x0, py: py)
        for x in x0..<x1 {
          let expected = UInt8(Rasterizer.coverageByte(reference.next(of: s, radius: radius, rasterizer: rasterizer)))
          let walked = bytes.nextByte(of: s, radius: radius, inside: inside, outside: outside, rasterizer: rasterizer)
          if walked != expected {
            XCTFail("segment (\(ax), \(ay))-(\(bx), \(by)) radius \(radius) pixel (\(x), \(y)): byte \(walked), "
              + "coverage walker \(expected)")
            return
          }
          if x == x0 + gap {
            skipping.skip(gap, of: s)
            let skipped = skipping.nextByte(
              of: s, radius: radius, inside: inside, outside: outside, rasterizer: rasterizer)
            XCTAssertEqual(skipped, expected, "skip(\(gap)) from \(x0), row \(y), radius \(radius)")
            XCTAssertEqual(skipping.along, bytes.along)
            // (A dot's quotient and remainder are never read: `next` counts the
            // quotient up there, `skip` leaves it.)
            if s.length > 0 {
              XCTAssertEqual(skipping.quotient, bytes.quotient)
              XCTAssertEqual(skipping.remainder, bytes.remainder)
            }
          }
        }
      }
    }
  }

  func testRowCutsLieWithinTheSegmentsColumns() {
    var random = SeededRandom(state: 0xC0_1D_5EED)
    for _ in 0..<3000 {
      let ax = random.int(-100_000...4_000_000), ay = random.int(-100_000...4_000_000)
      let bx = ax &+ random.int(-600_000...600_000), by = ay &+ random.int(-600_000...600_000)
      let radius = random.int(256...131_072)
      let s = segment(ax: ax, ay: ay, bx: bx, by: by, radius: radius)
      for y in s.firstRow..<s.endRow {
        guard let outer = s.spans(atY: SubPixel.centre(y)).outer else { continue }
        let first = SubPixel.firstCentre(atOrAfter: outer.low), end = SubPixel.endCentre(atOrBefore: outer.high)
        if first < s.columns.first || end > s.columns.end {
          XCTFail("segment (\(ax), \(ay))-(\(bx), \(by)) radius \(radius) row \(y): cut \(first)..<\(end) "
            + "outside columns \(s.columns.first)..<\(s.columns.end)")
          return
        }
      }
    }
  }

  func testSharedRowCutsEqualSeparateSpansOnRandomSegments() {
    var random = SeededRandom(state: 0xFACE_0FF)
    for _ in 0..<3000 {
      let ax = random.int(-100_000...8_000_000), ay = random.int(-100_000...4_500_000)
      var bx = ax &+ random.int(-900_000...900_000), by = ay &+ random.int(-900_000...900_000)
      switch random.next() % 8 {
      case 0: by = ay
      case 1: bx = ax
      case 2: (bx, by) = (ax, ay)
      default: break
      }
      // Radii down to below the anti-aliasing reach, where the inner cut is empty.
      let radius = random.int(0...131_072)
      let s = segment(ax: ax, ay: ay, bx: bx, by: by, radius: radius)
      for y in (s.firstRow - 2)..<(s.endRow + 2) {
        let cy = SubPixel.centre(y)
        let shared = s.spans(atY: cy)
        let outer = s.span(atY: cy, radius: s.outerRadius, widen: true)
        let inner = s.span(atY: cy, radius: s.innerRadius, widen: false)
        if shared.outer?.low != outer?.low || shared.outer?.high != outer?.high
          || shared.inner?.low != inner?.low || shared.inner?.high != inner?.high
        {
          XCTFail("segment (\(ax), \(ay))-(\(bx), \(by)) radius \(radius) row \(y): shared cuts \(shared) "
            + "differ from separate spans \(String(describing: outer)), \(String(describing: inner))")
          return
        }
      }
    }
  }

  func testFloorDivisionRoundsTowardsMinusInfinity() {
    var random = SeededRandom(state: 42)
    for _ in 0..<20_000 {
      let value = random.int(-(1 << 58)...(1 << 58)), divisor = random.int(1...(1 << 30))
      let (q, r) = CapsuleSegment.floorDivision(value, by: divisor)
      XCTAssertTrue(r >= 0 && r < divisor && q * divisor + r == value, "\(value) / \(divisor) gave \(q) r \(r)")
      if !(r >= 0 && r < divisor && q * divisor + r == value) { return }
    }
  }
}
