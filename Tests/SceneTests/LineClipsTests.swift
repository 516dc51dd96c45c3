import PatternCore
import XCTest

@testable import Scene

/// The line is stroked once per piece of `LineClips`: the pieces must tile the clip
/// less the holes exactly (no pixel twice, none left out but the holes'), or the
/// frame would change.
final class LineClipsTests: XCTestCase {
  /// Which pixels of `area` the pieces cover, and how often.
  private func coverCounts(_ pieces: LineClips, in area: Rect) -> [Int] {
    var counts = [Int](repeating: 0, count: area.width * area.height)
    for i in 0..<pieces.count {
      let piece = pieces[i]
      XCTAssertFalse(piece.isEmpty, "an empty piece is kept")
      for y in piece.y..<piece.maxY {
        for x in piece.x..<piece.maxX { counts[(y - area.y) * area.width + (x - area.x)] += 1 }
      }
    }
    return counts
  }

  func testPiecesTileTheClipLessTheHoles() {
    var state: UInt64 = 0x11E_C11F
    func next(_ range: ClosedRange<Int>) -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
    for _ in 0..<400 {
      let clip = Rect(x: next(0...20), y: next(0...20), width: next(1...40), height: next(1...40))
      var pieces = LineClips(clip)
      var holes: [Rect] = []
      for _ in 0..<next(0...4) {
        let hole = Rect(x: next(-5...60), y: next(-5...60), width: next(0...15), height: next(0...15))
        let before = pieces
        pieces.cutOut(hole)
        // A hole that needs more room than there is is left uncut, never half cut.
        if pieces.count == before.count && coverCounts(pieces, in: clip) == coverCounts(before, in: clip) { continue }
        holes.append(hole)
      }
      let counts = coverCounts(pieces, in: clip)
      for y in clip.y..<clip.maxY {
        for x in clip.x..<clip.maxX {
          let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
          XCTAssertEqual(counts[(y - clip.y) * clip.width + (x - clip.x)], inHole ? 0 : 1, "pixel (\(x), \(y))")
        }
      }
    }
  }

  func testAnEmptyClipHasNoPiecesAndAHoleOutsideChangesNothing() {
    XCTAssertEqual(LineClips(.empty).count, 0)
    var pieces = LineClips(Rect(x: 0, y: 0, width: 10, height: 10))
    pieces.cutOut(Rect(x: 20, y: 20, width: 5, height: 5))
    pieces.cutOut(.empty)
    XCTAssertEqual(pieces.count, 1)
    XCTAssertEqual(pieces[0], Rect(x: 0, y: 0, width: 10, height: 10))
    pieces.cutOut(Rect(x: 3, y: 3, width: 4, height: 4))
    XCTAssertEqual(pieces.count, 4, "a hole inside a piece leaves the rows above and below and the sides")
  }

  func testAHoleWithoutRoomIsNotCut() {
    var pieces = LineClips(Rect(x: 0, y: 0, width: 10, height: 200))
    // Each hole inside the bottom piece adds three pieces: five fit in 16.
    for k in 0..<5 { pieces.cutOut(Rect(x: 3, y: 10 + 30 * k, width: 4, height: 5)) }
    XCTAssertEqual(pieces.count, 16)
    let before = (0..<pieces.count).map { pieces[$0] }
    pieces.cutOut(Rect(x: 3, y: 180, width: 4, height: 5))
    XCTAssertEqual((0..<pieces.count).map { pieces[$0] }, before)
  }
}
