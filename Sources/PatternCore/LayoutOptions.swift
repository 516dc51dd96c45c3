/// What the grid layout is computed from.
public struct LayoutOptions: Hashable, Sendable {
  /// The panel's width in pixels, as scanned out (before rotation).
  public var panelWidth: Int
  /// The panel's height in pixels, as scanned out (before rotation).
  public var panelHeight: Int
  /// How the view is turned on the panel.
  public var rotation: Rotation
  /// Dots per row and column, 3 to 7.
  public var gridSize: Int
  /// Pixels per inch, when known (from the panel's physical size or an override).
  ///
  /// With a DPI the cell is capped at `maximumCellMillimetres` and text has a physical
  /// size; without one everything scales with the panel.
  public var dotsPerInch: Int?
  /// The hit radius as thousandths of half a cell; 600 is Android's 0.6.
  public var hitRadiusPerMille: Int
  /// Lines of the owner's message laid out under the prompt, 0 to `maximumMessageLines`
  /// (how many the message takes once wrapped to `GridLayout.messageWidth`).
  public var messageLines: Int
  /// Whether a corner holds the power button (`power-button = yes`).
  public var powerButton: Bool

  /// The smallest panel side we lay out.
  public static let minimumSide = 240
  /// The largest panel side we lay out.
  public static let maximumSide = 3840
  /// The allowed grid sizes.
  public static let gridSizes = 3...7
  /// The allowed DPI values.
  public static let dpiRange = 50...1000
  /// The allowed hit radii, in thousandths of half a cell.
  public static let hitRadiusRange = 100...1000
  /// The largest cell, in millimetres, when the DPI is known: a grid for a fingertip,
  /// not one that fills a television.
  public static let maximumCellMillimetres = 25
  /// The most lines a message is given; a longer one is cut with an ellipsis.
  public static let maximumMessageLines = 3

  /// The default: the Raspberry Pi 7-inch display, 800x480, a 3x3 grid.
  public init(
    panelWidth: Int = 800, panelHeight: Int = 480, rotation: Rotation = .none,
    gridSize: Int = 3, dotsPerInch: Int? = nil, hitRadiusPerMille: Int = 600, messageLines: Int = 0,
    powerButton: Bool = false
  ) {
    self.panelWidth = panelWidth
    self.panelHeight = panelHeight
    self.rotation = rotation
    self.gridSize = gridSize
    self.dotsPerInch = dotsPerInch
    self.hitRadiusPerMille = hitRadiusPerMille
    self.messageLines = messageLines
    self.powerButton = powerButton
  }

  /// The DPI of a panel from its physical size, or nil when the size is not believable.
  ///
  /// Many panels report 0 mm, and some report a size in centimetres or a made-up
  /// aspect ratio; a DPI outside `dpiRange` is treated as unknown.
  public static func dotsPerInch(pixels: Int, millimetres: Int) -> Int? {
    guard pixels > 0, millimetres > 0 else { return nil }
    let dpi = Int(roundedDivision(Int64(pixels) * 254, Int64(millimetres) * 10))
    return dpiRange.contains(dpi) ? dpi : nil
  }

  /// Checks every field and says what is wrong with the first bad one.
  ///
  /// - Throws: `LayoutError` naming the field and its allowed range.
  public func validate() throws(LayoutError) {
    let sides = LayoutOptions.minimumSide...LayoutOptions.maximumSide
    guard sides.contains(panelWidth), sides.contains(panelHeight) else {
      throw .panelSizeOutOfRange(width: panelWidth, height: panelHeight)
    }
    guard LayoutOptions.gridSizes.contains(gridSize) else { throw .gridSizeOutOfRange(gridSize) }
    if let dpi = dotsPerInch, !LayoutOptions.dpiRange.contains(dpi) { throw .dpiOutOfRange(dpi) }
    guard LayoutOptions.hitRadiusRange.contains(hitRadiusPerMille) else {
      throw .hitRadiusOutOfRange(hitRadiusPerMille)
    }
    guard (0...LayoutOptions.maximumMessageLines).contains(messageLines) else {
      throw .messageLinesOutOfRange(messageLines)
    }
  }
}

/// Why a layout cannot be computed.
public enum LayoutError: DescribedError, Equatable {
  case panelSizeOutOfRange(width: Int, height: Int)
  case gridSizeOutOfRange(Int)
  case dpiOutOfRange(Int)
  case hitRadiusOutOfRange(Int)
  case messageLinesOutOfRange(Int)

  /// One line for the user: what is wrong and what is allowed.
  public var message: String {
    switch self {
    case .panelSizeOutOfRange(let w, let h):
      return "panel size \(w)x\(h) is out of range: each side must be \(LayoutOptions.minimumSide) to \(LayoutOptions.maximumSide) pixels"
    case .gridSizeOutOfRange(let n):
      return "grid size \(n) is out of range: use 3 to 7"
    case .dpiOutOfRange(let dpi):
      return "DPI \(dpi) is out of range: use \(LayoutOptions.dpiRange.lowerBound) to \(LayoutOptions.dpiRange.upperBound), or leave it out"
    case .hitRadiusOutOfRange(let r):
      return "hit radius \(r)/1000 of half a cell is out of range: use \(LayoutOptions.hitRadiusRange.lowerBound) to \(LayoutOptions.hitRadiusRange.upperBound)"
    case .messageLinesOutOfRange(let n):
      return "\(n) message lines is out of range: use 0 to \(LayoutOptions.maximumMessageLines)"
    }
  }
}
