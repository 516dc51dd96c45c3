import PatternCore
import Raster
import XCTest

/// TextLayout and GlyphAtlas with a hand-made atlas, so placements are exact numbers.
final class TextLayoutTests: XCTestCase {
  /// 'A' 3x4 advance 4, 'b' 2x5 (bearingX 1) advance 3, ' ' empty advance 2, '?' 1x1 advance 5.
  private func atlas() -> GlyphAtlas {
    var atlas = GlyphAtlas(
      pixelSize: 6, ascender: 5, descender: 2, lineHeight: 8,
      glyphs: [
        .init(scalar: "b", width: 2, height: 5, bearingX: 1, bearingY: 5, advance: 3),
        .init(scalar: "A", width: 3, height: 4, bearingX: 0, bearingY: 4, advance: 4),
        .init(scalar: " ", width: 0, height: 0, bearingX: 0, bearingY: 0, advance: 2),
        .init(scalar: "?", width: 1, height: 1, bearingX: 0, bearingY: 3, advance: 5),
      ])
    let a = atlas.index(of: "A")!
    for row in 0..<4 { atlas.setMaskRow(row, ofGlyphAt: a, to: [UInt8(row), 128, 255]) }
    return atlas
  }

  func testGlyphsAreStoredInScalarOrderPackedInOnePlane() {
    let atlas = atlas()
    XCTAssertEqual((0..<atlas.count).map { atlas.glyph(at: $0).scalar }, [" ", "?", "A", "b"])
    XCTAssertEqual((0..<atlas.count).map { atlas.glyph(at: $0).maskOffset }, [0, 0, 1, 13])
    XCTAssertEqual(atlas.plane.count, 0 + 1 + 12 + 10)
    let a = atlas.glyph(for: "A")!
    XCTAssertEqual(a.maskStride, 3)
    XCTAssertEqual(atlas.coverage(x: 0, y: 2, of: a), 2)
    XCTAssertEqual(atlas.coverage(x: 2, y: 3, of: a), 255)
    XCTAssertEqual(Array(atlas.plane[a.maskOffset..<(a.maskOffset + 3)]), [0, 128, 255])
    XCTAssertNil(atlas.glyph(for: "z"))
  }

  func testWidthIsTheSumOfAdvancesAndUnknownScalarsUseTheFallback() {
    let atlas = atlas()
    XCTAssertEqual(TextLayout.width(of: "", in: atlas), 0)
    XCTAssertEqual(TextLayout.width(of: "Ab A", in: atlas), 4 + 3 + 2 + 4)
    XCTAssertEqual(TextLayout.width(of: "z", in: atlas), 5, "'z' is drawn as '?'")
  }

  func testPlacementsFollowThePenAndTheBaseline() {
    let atlas = atlas()
    var placements: [TextLayout.Placement] = []
    TextLayout.forEachGlyph(in: "Ab A", atlas: atlas, x: 10, baseline: 20) { placements.append($0) }
    XCTAssertEqual(placements.map { $0.glyph.scalar }, ["A", "b", " ", "A"])
    XCTAssertEqual(placements.map { $0.x }, [10, 15, 17, 19])
    XCTAssertEqual(placements.map { $0.y }, [16, 15, 20, 16])
  }

  func testInkBoundsCoverEveryMaskAndIgnoreBlankGlyphs() {
    let atlas = atlas()
    XCTAssertEqual(TextLayout.inkBounds(of: "Ab", atlas: atlas, x: 10, baseline: 20), Rect(x: 10, y: 15, width: 7, height: 5))
    XCTAssertEqual(TextLayout.inkBounds(of: "  ", atlas: atlas, x: 10, baseline: 20), .empty)
  }

  func testAtlasWithoutFallbackSkipsUnknownScalars() {
    let atlas = GlyphAtlas(
      pixelSize: 6, ascender: 5, descender: 2, lineHeight: 8,
      glyphs: [.init(scalar: "x", width: 1, height: 1, bearingX: 0, bearingY: 1, advance: 3)])
    XCTAssertEqual(TextLayout.width(of: "x\u{1F600}x", in: atlas), 6)
    var count = 0
    TextLayout.forEachGlyph(in: "x\u{1F600}x", atlas: atlas, x: 0, baseline: 0) { _ in count += 1 }
    XCTAssertEqual(count, 2)
  }
}
