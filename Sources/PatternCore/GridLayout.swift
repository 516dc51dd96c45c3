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
///    lines above the grid. A message adds `messageLines` lines of 5/4 of the text
///    height under the prompt (the band grows by them).
/// 2a. The power button is a square the band's height: in the text column's bottom
///    left corner beside the grid, else in the view's bottom right corner, with a
///    strip kept free for it under the grid when that corner would touch the grid.
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
  /// The owner's message under the prompt: `messageLines` lines of `messageLineHeight`.
  /// Its width is the width a message is wrapped to, also when it has no lines yet.
  public let messageRect: Rect
  /// The distance between the baselines of two message lines.
  public let messageLineHeight: Int
  /// The power button's square in a corner outside the grid; empty without one.
  public let powerButtonRect: Rect
  public let cell: Fixed16
  public let margin: Fixed16
  public let dotRadius: Fixed16
  public let ringRadius: Fixed16
  public let ringStroke: Fixed16
  public let lineWidth: Fixed16
  public let hitRadius: Fixed16
  /// How far a `shift` may move the grid each way, in whole pixels (`shiftRoom`).
  public let shiftRoomX: Int
  public let shiftRoomY: Int
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
    let promptBand = font * 2
    let lineHeight = (font * 5 + 2) / 4
    messageLineHeight = lineHeight
    let messageHeight = options.messageLines * lineHeight
    let band = promptBand + messageHeight
    // A square as high as the prompt's band: big enough to find, small enough for a corner.
    let button = options.powerButton ? promptBand : 0
    // The message keeps half a line clear of the view's or the column's edges.
    let inset = font / 2

    let promptBeside = width - height >= shortSide / 3
    var side = promptBeside ? min(height, width - shortSide / 3) : min(width, height - band)
    if let dpi = options.dotsPerInch {
      let cellCap = pixels(tenthsOfMillimetre: LayoutOptions.maximumCellMillimetres * 10, dpi: dpi)
      side = min(side, cellCap * (3 * n + 1) / 2)
    }
    // Above the grid, the button takes the bottom right corner; when neither the
    // space below nor the space beside the grid is that wide, a strip the button's
    // height is kept free at the bottom (the grid shrinks by it).
    var reserved = 0
    if !promptBeside && button > 0 {
      let free = height - band - side
      let freeBelow = free - free / 2, freeRight = width - side - (width - side) / 2
      if freeBelow < button && freeRight < button {
        reserved = button
        side = min(side, height - band - button)
      }
    }
    let cell = Fixed16(numerator: Int64(2 * side), denominator: Int64(3 * n + 1))
    let margin = (Fixed16(side) - cell * n) / (n + 1)
    self.cell = cell
    self.margin = margin

    if promptBeside {
      let textWidth = min(width - side, side)
      let left = (width - textWidth - side) / 2
      // The prompt stays level with the grid's centre unless the message would then
      // reach the button in the column's bottom corner.
      var top = (height - band) / 2
      if top + band > height - button { top = max(0, height - button - band) }
      promptRect = Rect(x: left, y: top, width: textWidth, height: promptBand)
      messageRect = Rect(x: left + inset, y: top + promptBand, width: textWidth - 2 * inset, height: messageHeight)
      gridRect = Rect(x: left + textWidth, y: (height - side) / 2, width: side, height: side)
      powerButtonRect = button > 0 ? Rect(x: left, y: height - button, width: button, height: button) : .empty
    } else {
      let top = (height - reserved - band - side) / 2
      promptRect = Rect(x: 0, y: top, width: width, height: promptBand)
      messageRect = Rect(x: inset, y: top + promptBand, width: width - 2 * inset, height: messageHeight)
      gridRect = Rect(x: (width - side) / 2, y: top + band, width: side, height: side)
      powerButtonRect = button > 0 ? Rect(x: width - button, y: height - button, width: button, height: button) : .empty
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
    let room = GridLayout.shiftRoom(
      gridRect: gridRect, first: centres[0], last: centres[n * n - 1],
      extent: ringRadius + ringStroke / 2 + Fixed16.one, clearance: font / 4)
    shiftRoomX = room.x
    shiftRoomY = room.y
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
