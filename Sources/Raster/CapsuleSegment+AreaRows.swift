import PatternCore

extension CapsuleSegment {
  /// Narrows `firstRow..<endRow` to the rows on which the capsule can reach the
  /// columns of `area`, so a polyline draw clipped to a small area cuts no rows of a
  /// slanted segment that only passes beside it (a damage box's far corner).
  ///
  /// The capsule lies inside its line's slab, the points within the radius of the
  /// infinite line through the ends; on a row the slab is the stretch `outerSide`
  /// either side of the axis crossing. So where the axis crossing is more than
  /// `outerSide` (plus two pixels for the cut's rounding, more than `spans(atY:)`
  /// ever widens) beyond the area's outermost pixel centres, the row's cut misses
  /// the area and `pixelColumns` would give nothing. The rows are solved for once
  /// per draw (the axis crossing is monotonic in the row) and widened by a pixel
  /// for the divisions' rounding, so no row with a cut in the area is dropped and
  /// the bytes are those of walking every row.
  @inlinable mutating func narrowRows(toColumnsOf area: Rect) {
    // Horizontal and vertical segments' boxes are already their slabs, and an
    // area across all the columns the capsule can touch (a full redraw) keeps
    // every row.
    if uy == 0 || ux == 0 || area.isEmpty { return }
    let (first, end) = columns
    if first >= area.x && end <= area.maxX { return }
    let reach = outerSide &+ 8192
    let left = SubPixel.centre(area.x) &- reach &- ax
    let right = SubPixel.centre(area.maxX &- 1) &+ reach &- ax
    // The row centres whose axis crossing `ax + (y - ay) * ux / uy` lies in
    // `ax + left ... ax + right`.
    var low = ay &+ left &* uy / ux, high = ay &+ right &* uy / ux
    if low > high { swap(&low, &high) }
    firstRow = max(firstRow, SubPixel.firstCentre(atOrAfter: low &- 4096))
    endRow = min(endRow, SubPixel.endCentre(atOrBefore: high &+ 4096))
  }
}
