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

  public init(grid: Rect, reference: Rect, button: Rect = .empty, referenceButton: Rect = .empty) {
    self.grid = grid
    self.reference = reference
    self.button = button
    self.referenceButton = referenceButton
  }

  /// The mapping of a grid onto itself.
  public static func identity(_ grid: Rect) -> GridMapping { GridMapping(grid: grid, reference: grid) }

  /// A point on this output's grid (or its power button) as the tracker's.
  public func toReference(_ point: Point) -> Point {
    if !referenceButton.isEmpty, GridMapping.contains(button, point) {
      return Point(
        x: GridMapping.map(point.x, from: button.x, button.width, to: referenceButton.x, referenceButton.width),
        y: GridMapping.map(point.y, from: button.y, button.height, to: referenceButton.y, referenceButton.height))
    }
    return Point(
      x: GridMapping.map(point.x, from: grid.x, grid.width, to: reference.x, reference.width),
      y: GridMapping.map(point.y, from: grid.y, grid.height, to: reference.y, reference.height))
  }

  /// A point on the tracker's grid as this output's (the finger drawn there).
  public func fromReference(_ point: Point) -> Point {
    Point(
      x: GridMapping.map(point.x, from: reference.x, reference.width, to: grid.x, grid.width),
      y: GridMapping.map(point.y, from: reference.y, reference.height, to: grid.y, grid.height))
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
