/// Where everything on the lock screen goes, computed once from the panel.
///
/// The pass is integer and 16.16 fixed point only, so a layout is identical on every
/// architecture. Everything is in *view* coordinates (upright for the user); use
/// `transform` to reach panel coordinates.
///
/// The rules, in order:
/// 1. Text for one prompt line is `fontPixels` high: 3.2 mm when the DPI is known,
///    else 1/24 of the shorter view side; at least 12 pixels either way.
/// 2. A view at least a third of its short side wider than it is tall puts the
///    prompt beside the grid (left); any other view puts it in a band of two text
///    lines above the grid.
/// 3. The grid is the largest square left, `side` whole pixels, capped so that a cell
///    is at most 25 mm when the DPI is known.
/// 4. Cells and margins follow `margin = (side - n*cell)/(n+1)` with
///    `cell = 2*side/(3n+1)`, so each margin is half a cell and the dots are centred.
/// 5. Radii scale with the cell: dot 1/8, ring 3/8, ring stroke 1/32 (at least one
///    pixel), line width 5/48, hit radius `hitRadiusPerMille`/1000 of half a cell.
///
/// Divisions of whole pixels by two (centring) round down; fixed-point quantities
/// round to nearest (see `Fixed16`).
public struct GridLayout: Sendable {
  /// The largest grid this type holds.
  public static let maximumDots = 49

  public let options: LayoutOptions
  /// Maps view points to panel points and back.
  public let transform: ViewTransform
  /// Dots per row and column.
  public let gridSize: Int
  /// The grid square in view pixels.
  public let gridRect: Rect
  /// The prompt's text box in view pixels.
  public let promptRect: Rect
  /// The prompt's text height in pixels.
  public let fontPixels: Int
  public let cell: Fixed16
  public let margin: Fixed16
  public let dotRadius: Fixed16
  public let ringRadius: Fixed16
  public let ringStroke: Fixed16
  public let lineWidth: Fixed16
  public let hitRadius: Fixed16
  private let centres: InlineArray<49, Point>

  /// Lays out the grid.
  ///
  /// - Throws: `LayoutError` when an option is out of range.
  public init(_ options: LayoutOptions) throws(LayoutError) {
    try options.validate()
    self.options = options
    let transform = ViewTransform(
      rotation: options.rotation, panelWidth: options.panelWidth, panelHeight: options.panelHeight)
    self.transform = transform
    let n = options.gridSize
    gridSize = n
    let width = transform.viewWidth, height = transform.viewHeight
    let shortSide = min(width, height)

    func pixels(tenthsOfMillimetre: Int, dpi: Int) -> Int {
      Int(roundedDivision(Int64(tenthsOfMillimetre) * Int64(dpi), 254))
    }
    let font: Int
    if let dpi = options.dotsPerInch {
      font = max(12, min(pixels(tenthsOfMillimetre: 32, dpi: dpi), shortSide / 10))
    } else {
      font = max(12, shortSide / 24)
    }
    fontPixels = font
    let band = font * 2

    let promptBeside = width - height >= shortSide / 3
    var side = promptBeside ? min(height, width - shortSide / 3) : min(width, height - band)
    if let dpi = options.dotsPerInch {
      let cellCap = pixels(tenthsOfMillimetre: LayoutOptions.maximumCellMillimetres * 10, dpi: dpi)
      side = min(side, cellCap * (3 * n + 1) / 2)
    }
    let cell = Fixed16(numerator: Int64(2 * side), denominator: Int64(3 * n + 1))
    let margin = (Fixed16(side) - cell * n) / (n + 1)
    self.cell = cell
    self.margin = margin

    if promptBeside {
      let textWidth = min(width - side, side)
      let left = (width - textWidth - side) / 2
      promptRect = Rect(x: left, y: (height - band) / 2, width: textWidth, height: band)
      gridRect = Rect(x: left + textWidth, y: (height - side) / 2, width: side, height: side)
    } else {
      let top = (height - band - side) / 2
      promptRect = Rect(x: 0, y: top, width: width, height: band)
      gridRect = Rect(x: (width - side) / 2, y: top + band, width: side, height: side)
    }

    dotRadius = cell / 8
    ringRadius = cell.scaled(by: 3, over: 8)
    ringStroke = max(Fixed16.one, cell / 32)
    lineWidth = cell.scaled(by: 5, over: 48)
    hitRadius = (cell / 2).scaled(by: options.hitRadiusPerMille, over: 1000)

    var centres = InlineArray<49, Point>(repeating: Point(x: 0, y: 0))
    let origin = Point(x: gridRect.x, y: gridRect.y)
    for row in 0..<n {
      for column in 0..<n {
        let x = origin.x + margin * (column + 1) + cell * column + cell / 2
        let y = origin.y + margin * (row + 1) + cell * row + cell / 2
        centres[row * n + column] = Point(x: x, y: y)
      }
    }
    self.centres = centres
  }

  /// How many dots the grid has.
  @inlinable public var dotCount: Int { gridSize * gridSize }

  /// The centre of a dot in view pixels.
  ///
  /// - Parameter dot: 1 to `dotCount`, row-major from the top left.
  public func centre(of dot: Int) -> Point {
    precondition(dot >= 1 && dot <= dotCount, "dot number out of range")
    return centres[dot - 1]
  }

  /// The row and column (from 0) of a dot.
  @inlinable public func rowAndColumn(of dot: Int) -> (row: Int, column: Int) {
    ((dot - 1) / gridSize, (dot - 1) % gridSize)
  }

  /// The dot at a row and column (from 0).
  @inlinable public func dot(row: Int, column: Int) -> Int { row * gridSize + column + 1 }
}
