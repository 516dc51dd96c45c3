import PatternCore

/// How a point on one output's grid lands on the grid the lock's gesture tracker was
/// laid out for (the first output's), and back. Every output's layout is the same
/// grid at another size and place (GridLayout: the dots, their hit circles and the
/// cells all scale with the grid's side), so moving the one square onto the other
/// maps dot onto dot and hit circle onto hit circle. The power button sits in a
/// corner, not on the grid: a point inside this output's button is moved onto the
/// tracker's button the same way, box onto box, so it can be pressed on any output.
/// Whole-number maths in 16.16.
public struct GridMapping: Sendable, Equatable {
  /// This output's grid square, in its view pixels.
  public var grid: Rect
  /// The tracker's grid square, in its view pixels.
  public var reference: Rect
  /// This output's power button and the tracker's (empty without one).
  public var button: Rect
  public var referenceButton: Rect
  /// How far a moving grid (`grid-motion = shift`) stands from its square, in whole
  /// pixels, on this output and on the tracker's: each output moves its own grid by
  /// its own share of its own room (`GridLayout.offset(of:)`), so the moved squares
  /// are mapped onto each other, dot onto dot, whatever the rounding.
  public var shiftX = 0, shiftY = 0
  public var referenceShiftX = 0, referenceShiftY = 0

  public init(grid: Rect, reference: Rect, button: Rect = .empty, referenceButton: Rect = .empty) {
    self.grid = grid
    self.reference = reference
    self.button = button
    self.referenceButton = referenceButton
  }

  /// The mapping of a grid onto itself.
  public static func identity(_ grid: Rect) -> GridMapping { GridMapping(grid: grid, reference: grid) }

  /// The mapping with the grid placed at `placement` on this output (laid out as
  /// `layout`) and on the tracker's (`reference`). A turn needs nothing: it only
  /// changes which dot stands where, the same on every output.
  public func placed(at placement: GridPlacement, layout: GridLayout, reference: GridLayout) -> GridMapping {
    var mapping = self
    (mapping.shiftX, mapping.shiftY) = layout.offset(of: placement)
    (mapping.referenceShiftX, mapping.referenceShiftY) = reference.offset(of: placement)
    return mapping
  }

  /// A point on this output's grid (or its power button) as the tracker's.
  public func toReference(_ point: Point) -> Point {
    if !referenceButton.isEmpty, GridMapping.contains(button, point) {
      return Point(
        x: GridMapping.map(point.x, from: button.x, button.width, to: referenceButton.x, referenceButton.width),
        y: GridMapping.map(point.y, from: button.y, button.height, to: referenceButton.y, referenceButton.height))
    }
    return Point(
      x: GridMapping.map(point.x, from: grid.x + shiftX, grid.width, to: reference.x + referenceShiftX, reference.width),
      y: GridMapping.map(point.y, from: grid.y + shiftY, grid.height, to: reference.y + referenceShiftY, reference.height))
  }

  /// A point on the tracker's grid as this output's (the finger drawn there).
  public func fromReference(_ point: Point) -> Point {
    Point(
      x: GridMapping.map(point.x, from: reference.x + referenceShiftX, reference.width, to: grid.x + shiftX, grid.width),
      y: GridMapping.map(point.y, from: reference.y + referenceShiftY, reference.height, to: grid.y + shiftY, grid.height))
  }

  private static func contains(_ box: Rect, _ point: Point) -> Bool {
    !box.isEmpty && point.x >= Fixed16(box.x) && point.x < Fixed16(box.maxX) && point.y >= Fixed16(box.y)
      && point.y < Fixed16(box.maxY)
  }

  private static func map(_ value: Fixed16, from origin: Int, _ side: Int, to target: Int, _ targetSide: Int) -> Fixed16 {
    guard side > 0, side != targetSide || origin != target else { return value }
    let offset = Int64(value.raw) - Int64(origin) * 65_536
    // Rounded to nearest, ties away from zero, as Fixed16 rounds.
    let scaled = offset * Int64(targetSide)
    let half = Int64(side) / 2
    let quotient = scaled >= 0 ? (scaled + half) / Int64(side) : (scaled - half) / Int64(side)
    let raw = Int64(target) * 65_536 + quotient
    return Fixed16(raw: Int32(max(min(raw, Int64(Int32.max)), Int64(Int32.min))))
  }
}
