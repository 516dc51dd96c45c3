import PatternCore
import Raster
import Scene

/// The benchmark scene, the one Benchmarks/cairo/cairo_scene.c draws: a 3x3 grid at
/// the layout `GridLayout` gives for the size, dots 1, 5, 9 and 6 joined and the
/// line running on to the finger, no prompt text (cairo draws none, so the atlas is
/// nil).
///
/// The theme is cairo_scene.c's colours: a solid background (the product's is a
/// vertical gradient), an opaque line and opaque rings (the product's are
/// translucent). So both sides draw the same shapes with the same blending work;
/// the one difference is that ours paints the joined dots in the line's colour,
/// which costs the same. Radii and the line width are the layout's, and the cairo
/// program reads them from the same layout (`patternlock layout` JSON).
struct BenchScene {
  static let selected = [1, 5, 9, 6]

  let layout: GridLayout
  let renderer: LockScreenRenderer
  let finger: FingerPath
  private let trail: DotSequence

  /// - Throws: `LayoutError` when the size is outside what the layout accepts.
  init(width: Int, height: Int) throws(LayoutError) {
    layout = try GridLayout(LayoutOptions(panelWidth: width, panelHeight: height))
    renderer = LockScreenRenderer(layout: layout, theme: BenchScene.cairoTheme, atlas: nil)
    finger = FingerPath(
      centre: layout.centre(of: BenchScene.selected[3]),
      pitch: layout.centre(of: 2).x - layout.centre(of: 1).x)
    trail = DotSequence(BenchScene.selected)
  }

  /// cairo_scene.c's colours in a `Theme`.
  static var cairoTheme: Theme {
    var theme = Theme()
    theme.backgroundTop = Color(0x10, 0x14, 0x18)
    theme.backgroundBottom = theme.backgroundTop
    theme.accent = Color(0x4f, 0xc3, 0xf7)
    theme.lineAlpha = 255
    theme.ring = Color(0x5a, 0x64, 0x70)
    theme.dot = Color(0xe0, 0xe0, 0xe0)
    return theme
  }

  var width: Int { layout.transform.viewWidth }
  var height: Int { layout.transform.viewHeight }

  /// The state on frame `frame`: the trail with the finger on its path.
  func state(frame: Int) -> LockScreenState {
    LockScreenState(trail: trail, finger: finger.position(frame: frame))
  }
}
