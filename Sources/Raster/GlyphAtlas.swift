/// Every glyph the screen can show, rasterised once at start-up into one 8-bit
/// coverage plane.
///
/// Text on the lock screen is a short prompt and a few digits, so the whole
/// repertoire (printable ASCII and a few extras) is rendered up front and drawing
/// text is then only blitting masks: no font engine, no allocation and no C call
/// per frame. The atlas is pure data; the `Typeface` module fills it from FreeType,
/// and tests can fill it by hand.
///
/// Storage: one `[UInt8]` plane holding each glyph's mask, packed one after another
/// (row-major, `maskStride == width`), so a glyph is (base offset, width, height,
/// stride) into `plane`, the shape a mask blit takes. Packing in one dimension wastes
/// nothing and needs no rectangle packer; the masks are never uploaded anywhere that
/// wants a square texture.
///
/// Metrics are whole pixels: `ascender` above the baseline, `descender` below it
/// (positive), `lineHeight` from one baseline to the next. A glyph's mask sits
/// `bearingX` right of the pen and its top row `bearingY` above the baseline; the
/// pen then moves `advance` pixels. No kerning.
public struct GlyphAtlas: Sendable {
  /// The pixel size the glyphs were rendered at (the em height).
  public let pixelSize: Int
  /// Pixels from the baseline up to the top of the tallest glyphs.
  public let ascender: Int
  /// Pixels from the baseline down to the bottom of the lowest glyphs (positive).
  public let descender: Int
  /// Pixels from one baseline to the next.
  public let lineHeight: Int
  /// All masks, 0 (empty) to 255 (fully covered); see `Glyph.maskOffset`.
  public private(set) var plane: [UInt8]
  /// The glyphs, sorted by scalar so that lookup is a binary search.
  private let glyphs: [Glyph]

  /// Lays out an atlas for glyphs of known sizes, with every mask empty.
  ///
  /// Each glyph's `maskOffset` and `maskStride` are assigned here; fill the masks
  /// with `setMaskRow(_:ofGlyphAt:to:)`. This is the only allocation: the plane.
  ///
  /// - Parameters:
  ///   - pixelSize: the em height the glyphs were rendered at.
  ///   - ascender: pixels above the baseline.
  ///   - descender: pixels below the baseline, positive.
  ///   - lineHeight: pixels between baselines.
  ///   - glyphs: one entry per scalar (no duplicates); offsets are ignored.
  /// - Precondition: sizes are non-negative and scalars unique (a caller bug otherwise).
  public init(pixelSize: Int, ascender: Int, descender: Int, lineHeight: Int, glyphs: [Glyph]) {
    precondition(pixelSize > 0 && ascender >= 0 && descender >= 0 && lineHeight >= 0, "bad font metrics")
    var sorted = glyphs
    sorted.sort { $0.scalar.value < $1.scalar.value }
    var offset = 0
    for i in sorted.indices {
      precondition(sorted[i].width >= 0 && sorted[i].height >= 0 && sorted[i].advance >= 0, "bad glyph size")
      precondition(i == 0 || sorted[i - 1].scalar != sorted[i].scalar, "duplicate glyph")
      sorted[i].maskOffset = offset
      sorted[i].maskStride = sorted[i].width
      offset += sorted[i].width * sorted[i].height
    }
    self.pixelSize = pixelSize
    self.ascender = ascender
    self.descender = descender
    self.lineHeight = lineHeight
    self.glyphs = sorted
    plane = [UInt8](repeating: 0, count: offset)
    _checkInvariants()
  }

  /// How many glyphs the atlas holds.
  public var count: Int { glyphs.count }

  /// The glyph at a position in scalar order, 0 to `count - 1`.
  public func glyph(at index: Int) -> Glyph { glyphs[index] }

  /// Where a scalar's glyph is in scalar order, or nil when the atlas lacks it.
  public func index(of scalar: Unicode.Scalar) -> Int? {
    var low = 0, high = glyphs.count
    while low < high {
      let middle = (low + high) / 2
      let value = glyphs[middle].scalar.value
      if value == scalar.value { return middle }
      if value < scalar.value { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// A scalar's glyph, or nil when the atlas lacks it.
  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    index(of: scalar).map { glyphs[$0] }
  }

  /// The coverage of one mask pixel, 0 to 255.
  ///
  /// - Precondition: (x, y) is inside the glyph's mask.
  public func coverage(x: Int, y: Int, of glyph: Glyph) -> UInt8 {
    precondition(x >= 0 && x < glyph.width && y >= 0 && y < glyph.height, "pixel outside the glyph mask")
    return plane[glyph.maskOffset + y * glyph.maskStride + x]
  }

  /// Fills one row of a glyph's mask (start-up only).
  ///
  /// - Parameters:
  ///   - row: 0 (top) to `height - 1`.
  ///   - index: the glyph's position, from `index(of:)`.
  ///   - coverage: exactly `width` values, left to right.
  /// - Precondition: the row exists and `coverage` is as wide as the glyph.
  public mutating func setMaskRow(_ row: Int, ofGlyphAt index: Int, to coverage: some Collection<UInt8>) {
    let glyph = glyphs[index]
    precondition(row >= 0 && row < glyph.height, "glyph row out of range")
    precondition(coverage.count == glyph.width, "coverage row is not as wide as the glyph")
    var i = glyph.maskOffset + row * glyph.maskStride
    for value in coverage {
      plane[i] = value
      i += 1
    }
  }

  /// Traps if the glyph table and the plane disagree (checking builds only).
  func _checkInvariants() {
    #if DEBUG
    var offset = 0
    for i in glyphs.indices {
      let g = glyphs[i]
      precondition(i == 0 || glyphs[i - 1].scalar.value < g.scalar.value, "glyphs not sorted")
      precondition(g.maskOffset == offset && g.maskStride == g.width, "glyph mask misplaced")
      offset += g.width * g.height
    }
    precondition(offset == plane.count, "plane size does not match the glyphs")
    #endif
  }
}
