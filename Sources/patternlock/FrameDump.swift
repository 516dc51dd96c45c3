import PNGImage
import PatternCore
import Raster
import Scene

/// The headless display: renders each picture the device would present into memory,
/// exactly as the device does (damaged rectangles drawn into an upright shadow frame,
/// then copied turned onto the panel frame), and writes the panel frames as PNG files
/// and, optionally, one contact sheet.
///
/// This is how tests and people see what the screen shows without a screen.
struct FrameDump {
  let renderer: LockScreenRenderer
  let format: PixelFormat
  let directory: String?
  private var view: [UInt8]
  private var panel: [UInt8]
  private var previous: LockScreenState?
  private(set) var written = 0
  private var sheet: ContactSheet?
  private let sheetPath: String?

  /// - Parameters:
  ///   - directory: where `00000.png`, `00001.png`, ... go, or nil for none.
  ///   - contactSheet: the contact sheet's path and how many frames it will hold.
  init(renderer: LockScreenRenderer, format: PixelFormat, directory: String?, contactSheet: (path: String, frames: Int)?) {
    self.renderer = renderer
    self.format = format
    self.directory = directory
    let transform = renderer.layout.transform
    view = [UInt8](repeating: 0, count: transform.viewWidth * transform.viewHeight * format.bytesPerPixel)
    panel = transform.rotation == .none ? [] : [UInt8](repeating: 0, count: transform.panelWidth * transform.panelHeight * format.bytesPerPixel)
    sheetPath = contactSheet?.path
    if let contactSheet {
      // Thumbnails about 200 pixels across, six to a row.
      let scale = max(1, min(transform.panelWidth, transform.panelHeight) / 160)
      sheet = ContactSheet(
        frameWidth: transform.panelWidth, frameHeight: transform.panelHeight, frameCount: max(contactSheet.frames, 1),
        columns: 6, scale: scale, separator: 2)
    }
  }

  private var transform: ViewTransform { renderer.layout.transform }

  /// Renders one picture and writes it.
  mutating func present(_ state: LockScreenState) throws(PNGError) {
    let damage = renderer.damage(from: previous, to: state)
    previous = state
    let (t, renderer, format) = (transform, renderer, format)
    let viewStride = t.viewWidth * format.bytesPerPixel, panelStride = t.panelWidth * format.bytesPerPixel
    view.withUnsafeMutableBytes { viewBytes in
      panel.withUnsafeMutableBytes { panelBytes in
        func draw<S: PixelStorage>(_: S.Type) {
          let shadow = Canvas<S>(pixels: viewBytes, width: t.viewWidth, height: t.viewHeight, bytesPerRow: viewStride, rasterizer: renderer.rasterizer)
          renderer.render(state, into: shadow, damage: damage)
          guard t.rotation != .none else { return }
          let out = Canvas<S>(pixels: panelBytes, width: t.panelWidth, height: t.panelHeight, bytesPerRow: panelStride, rasterizer: renderer.rasterizer)
          for i in 0..<damage.count { out.copyRotated(from: shadow, rect: damage[i], transform: t) }
        }
        switch format {
        case .xrgb8888: draw(XRGB8888.self)
        case .rgb565: draw(RGB565.self)
        }
      }
    }
    let frame = t.rotation == .none ? view : panel
    if let directory {
      let path = directory + "/" + FrameDump.fiveDigits(written) + ".png"
      try PNGFile.write(to: path, frame: frame, width: t.panelWidth, height: t.panelHeight, stride: panelStride, format: format)
    }
    if sheet != nil && written < sheet!.frameCount {
      sheet!.place(frame, stride: panelStride, format: format, at: written)
    }
    written += 1
  }

  /// The last panel frame, as the display would scan it out.
  var panelFrame: [UInt8] { transform.rotation == .none ? view : panel }

  /// Writes the contact sheet, if one was asked for.
  func finish() throws(PNGError) {
    guard let sheet, let sheetPath else { return }
    try PNGFile.write(to: sheetPath, frame: sheet.pixels, width: sheet.width, height: sheet.height, stride: sheet.stride, format: .xrgb8888)
  }

  static func fiveDigits(_ n: Int) -> String {
    var text = "\(n)"
    while text.utf8.count < 5 { text = "0" + text }
    return text
  }
}
