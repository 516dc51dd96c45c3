/// The grid as a `GridPlacement` puts it for one attempt: every place a dot is looked
/// for (the hit circles, the tap cells, the drawing) asks these, so they all follow
/// the moved grid. With `.home` each answer is the upright layout's own.
extension GridLayout {
  /// How far, in whole view pixels, a `shift` placement of `placement` moves the grid.
  ///
  /// A step is a sixteenth of the room (`shiftRoomX`, `shiftRoomY`), rounded towards
  /// zero, so a shift never leaves the room and every output moves by the same share.
  public func offset(of placement: GridPlacement) -> (x: Int, y: Int) {
    (shiftRoomX * placement.shiftX / GridPlacement.steps, shiftRoomY * placement.shiftY / GridPlacement.steps)
  }

  /// The centre of dot `dot` (the grid's own number) on the grid placed at `placement`.
  public func centre(of dot: Int, placedAt placement: GridPlacement) -> Point {
    let home = centre(of: placement.slot(of: dot, gridSize: gridSize))
    let (dx, dy) = offset(of: placement)
    return Point(x: home.x + Fixed16(dx), y: home.y + Fixed16(dy))
  }

  /// The grid square placed at `placement`: `gridRect` moved by its offset (a turn
  /// leaves the square where it is).
  public func gridRect(placedAt placement: GridPlacement) -> Rect {
    let (dx, dy) = offset(of: placement)
    return Rect(x: gridRect.x + dx, y: gridRect.y + dy, width: gridRect.width, height: gridRect.height)
  }

  /// `dot(inCellAt:)` on the grid placed at `placement`: the grid's own number of the
  /// dot whose cell holds `point`.
  public func dot(inCellAt point: Point, placedAt placement: GridPlacement) -> Int? {
    let (dx, dy) = offset(of: placement)
    guard let slot = dot(inCellAt: Point(x: point.x - Fixed16(dx), y: point.y - Fixed16(dy))) else { return nil }
    return placement.dot(atSlot: slot, gridSize: gridSize)
  }

  /// The mark that shows which way a turned grid stands (`grid-motion = turn`): a
  /// short bar across the middle of the grid's own top edge, between the square's
  /// edge and the top row's rings, as the ends of its centre line.
  ///
  /// Without it the turned grid looks like the upright one, and nobody could tell
  /// which corner is their pattern's.
  public func turnMark(placedAt placement: GridPlacement) -> (from: Point, to: Point) {
    let side = Fixed16(gridRect.width)
    let centreX = Fixed16(gridRect.x) + side / 2, centreY = Fixed16(gridRect.y) + side / 2
    let ringTop = centre(of: 1).y - ringExtent
    let markY = (Fixed16(gridRect.y + textClearance) + ringTop) / 2
    let up = centreY - markY, half = cell / 4
    var a = (u: -half, v: -up), b = (u: half, v: -up)
    for _ in 0..<placement.quarterTurns {
      a = (-a.v, a.u)
      b = (-b.v, b.u)
    }
    let (dx, dy) = offset(of: placement)
    return (
      Point(x: centreX + a.u + Fixed16(dx), y: centreY + a.v + Fixed16(dy)),
      Point(x: centreX + b.u + Fixed16(dx), y: centreY + b.v + Fixed16(dy))
    )
  }

  /// How far from a dot's centre its ring's ink may reach: the ring's outer edge and
  /// a pixel of anti-aliasing.
  var ringExtent: Fixed16 { ringRadius + ringStroke / 2 + Fixed16.one }

  /// The gap kept between a moved grid's ink and its square's edges: the prompt's
  /// ascenders and descenders may reach a little past its band into the square.
  var textClearance: Int { fontPixels / 4 }

  /// The room a shift has each way along x and y: the smaller of the gaps between the
  /// outer rings' ink and the grid square's edges, less `textClearance`. The square
  /// itself is clear of the prompt, the message, the power button and the view's
  /// edges, so a grid moved within it stays clear of them too.
  static func shiftRoom(
    gridRect: Rect, first: Point, last: Point, extent: Fixed16, clearance: Int
  ) -> (x: Int, y: Int) {
    let left = (first.x - extent).floor - gridRect.x, right = gridRect.maxX - (last.x + extent).ceil
    let top = (first.y - extent).floor - gridRect.y, bottom = gridRect.maxY - (last.y + extent).ceil
    return (max(0, min(left, right) - clearance), max(0, min(top, bottom) - clearance))
  }
}
