import PatternCore

/// A clip rectangle with holes cut out, as up to `capacity` disjoint rectangles
/// stored inline (no allocation): where the line is drawn under the joined dots.
///
/// A joined dot is blitted over the line in an opaque colour, and inside its mask's
/// `opaqueCore` every pixel then takes the dot's colour whatever lies underneath. So
/// the line need not be drawn there: the renderer strokes it once per piece of the
/// clip around those cores. The line's round caps and joins all lie under a dot
/// (the line is narrower than the dot), and they are the dearest rows of the
/// line: each is a square root per row and per edge pixel. A stroke gives the same
/// bytes clipped to rectangles that tile a region as to the region (`Canvas`), so
/// every pixel outside the cores is the one a single stroke would give, and the
/// frame is unchanged.
///
/// Cutting a hole splits each piece it meets into at most four: the rows above and
/// below it, and the columns left and right of it on its rows. A hole that would
/// need more pieces than there is room for is not cut (the line is then drawn under
/// it, as it would be anyway).
struct LineClips {
  static let capacity = 16

  private var storage = InlineArray<16, Rect>(repeating: .empty)
  private(set) var count = 0

  /// The whole of `clip` (nothing when it is empty).
  init(_ clip: Rect) {
    if clip.isEmpty { return }
    storage[0] = clip
    count = 1
  }

  /// The piece at `index`, 0 to `count - 1`.
  subscript(index: Int) -> Rect { storage[index] }

  /// Leaves `hole` out of every piece, when there is room for the pieces left.
  mutating func cutOut(_ hole: Rect) {
    if hole.isEmpty { return }
    var pieces = InlineArray<16, Rect>(repeating: .empty)
    var kept = 0
    for i in 0..<count {
      let piece = storage[i]
      let inside = piece.intersection(hole)
      let parts: InlineArray<4, Rect>
      if inside.isEmpty {
        parts = [piece, .empty, .empty, .empty]
      } else {
        parts = [
          Rect(x: piece.x, y: piece.y, width: piece.width, height: inside.y - piece.y),
          Rect(x: piece.x, y: inside.maxY, width: piece.width, height: piece.maxY - inside.maxY),
          Rect(x: piece.x, y: inside.y, width: inside.x - piece.x, height: inside.height),
          Rect(x: inside.maxX, y: inside.y, width: piece.maxX - inside.maxX, height: inside.height),
        ]
      }
      for k in 0..<4 where !parts[k].isEmpty {
        if kept == LineClips.capacity { return }
        pieces[kept] = parts[k]
        kept += 1
      }
    }
    storage = pieces
    count = kept
  }
}
