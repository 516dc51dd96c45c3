import PNGImage
import PatternCore
import Raster
import Screen

/// `replay`'s display back-end: every frame shown is written as `DIR/00000.png`,
/// `00001.png`, ... and/or placed on one contact sheet, exactly as the panel would
/// scan it out. This is how tests and people see what the screen shows without one.
///
/// It never switches off (blanking then shows black frames, so a dump shows the
/// blank), and every show completes at once.
struct PNGDumpDisplay<Pixel: PixelStorage>: PanelDisplay {
  typealias Failure = PNGError
  let width: Int
  let height: Int
  let directory: String?
  private var sheet: ContactSheet?
  private let sheetPath: String?
  /// How many frames were shown.
  private(set) var written = 0

  var pollDescriptor: Int32 { -1 }
  var isFlipPending: Bool { false }
  var isOutputOff: Bool { false }
  var canSwitchOff: Bool { false }

  /// - Parameters:
  ///   - directory: where the numbered files go, or nil for none.
  ///   - contactSheet: the sheet's path and how many frames it will hold, or nil.
  init(width: Int, height: Int, directory: String?, contactSheet: (path: String, frames: Int)?) {
    self.width = width
    self.height = height
    self.directory = directory
    sheetPath = contactSheet?.path
    if let contactSheet {
      // Thumbnails about 200 pixels across, six to a row.
      let scale = max(1, min(width, height) / 160)
      sheet = ContactSheet(
        frameWidth: width, frameHeight: height, frameCount: max(contactSheet.frames, 1), columns: 6, scale: scale,
        separator: 2)
    }
  }

  mutating func show(_ frame: [UInt8], damage: Rect) throws(PNGError) -> Bool {
    let stride = width * Pixel.bytesPerPixel
    if let directory {
      let path = directory + "/" + PNGDumpDisplay.fiveDigits(written) + ".png"
      try PNGFile.write(to: path, frame: frame, width: width, height: height, stride: stride, format: Pixel.format)
    }
    if sheet != nil && written < sheet!.frameCount {
      sheet!.place(frame, stride: stride, format: Pixel.format, at: written)
    }
    written += 1
    return true
  }

  /// Writes the contact sheet, if one was asked for.
  func finish() throws(PNGError) {
    guard let sheet, let sheetPath else { return }
    try PNGFile.write(to: sheetPath, frame: sheet.pixels, width: sheet.width, height: sheet.height, stride: sheet.stride, format: .xrgb8888)
  }

  mutating func completeFlip() throws(PNGError) -> UInt64? { nil }
  // Never called: `canSwitchOff` is false.
  mutating func switchOff() throws(PNGError) {}
  mutating func switchOn(showing frame: [UInt8]) throws(PNGError) {}

  static func fiveDigits(_ n: Int) -> String {
    var text = "\(n)"
    while text.utf8.count < 5 { text = "0" + text }
    return text
  }
}
