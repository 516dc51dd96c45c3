import PatternCore
import Raster
import Scene

/// One picture of the lock screen: a renderer laid out for one panel, the upright view
/// frame it draws into, the panel frame a turned view is copied onto, and the state
/// they show. `LockScreen` draws its panel with one; the session lock has one per
/// output, each laid out for that output's size, all showing the one lock's state.
///
/// Both frames are made once, by the first render, so a picture that is never drawn
/// (the panel's, under a display that draws into pictures of its own) holds no
/// frame; rendering after that allocates nothing.
public struct LockPicture<Pixel: PixelStorage> {
  public let renderer: LockScreenRenderer
  /// The panel-sized frame (the view frame itself when the view is not turned).
  public var frame: [UInt8] { renderer.layout.transform.rotation == .none ? view : panel }
  private var view: [UInt8] = []
  private var panel: [UInt8] = []
  /// The state the frames hold; nil before the first render or after `invalidate`.
  public private(set) var shown: LockScreenState?

  public init(renderer: LockScreenRenderer) {
    self.renderer = renderer
  }

  /// Whether the frames have been made (by the first render).
  public var hasFrames: Bool { !view.isEmpty }

  private mutating func makeFrames() {
    let t = renderer.layout.transform
    view = [UInt8](repeating: 0, count: t.viewWidth * t.viewHeight * Pixel.bytesPerPixel)
    if t.rotation != .none { panel = [UInt8](repeating: 0, count: t.panelWidth * t.panelHeight * Pixel.bytesPerPixel) }
  }

  /// The next render draws everything.
  public mutating func invalidate() { shown = nil }

  /// Brings `frame` up to date with `state`: only the damaged rectangles are drawn in
  /// the view, then turned onto the panel.
  ///
  /// - Returns: the panel rectangle that changed (empty when nothing did).
  public mutating func render(_ state: LockScreenState) -> Rect {
    if view.isEmpty { makeFrames() }
    let damage = renderer.damage(from: shown, to: state)
    shown = state
    if damage.isEmpty { return .empty }
    let renderer = self.renderer
    let t = renderer.layout.transform
    let size = Pixel.bytesPerPixel
    view.withUnsafeMutableBytes { viewBytes in
      let upright = Canvas<Pixel>(
        pixels: viewBytes, width: t.viewWidth, height: t.viewHeight, bytesPerRow: t.viewWidth * size,
        rasterizer: renderer.rasterizer)
      renderer.render(state, into: upright, damage: damage)
      guard t.rotation != .none else { return }
      panel.withUnsafeMutableBytes { panelBytes in
        let out = Canvas<Pixel>(
          pixels: panelBytes, width: t.panelWidth, height: t.panelHeight, bytesPerRow: t.panelWidth * size,
          rasterizer: renderer.rasterizer)
        for i in 0..<damage.count { out.copyRotated(from: upright, rect: damage[i], transform: t) }
      }
    }
    return renderer.layout.panelRect(fromView: damage.bounds)
  }
}

extension LockScreenRenderer {
  /// The renderer of the lock screen `configuration` describes, for `layout` and the
  /// text laid out for it.
  public convenience init(layout: GridLayout, configuration: ScreenConfiguration, text: ScreenText) {
    self.init(layout: layout, theme: configuration.theme, atlas: text.atlas, message: text.message, language: text.language,
      gridMotion: configuration.gridMotion)
  }
}
