import CommandTestSupport
import Foundation
import PatternCore
import Raster
import Recording
import Scene
import ScreenTestSupport
import Typeface
import XCTest

/// Replays shipped captures into lock-screen states and renders them, for the tests.
struct SceneHarness {
  let layout: GridLayout
  let events: [TouchEvent]
  let renderer: LockScreenRenderer

  static func capturePath(_ name: String) -> String { Captures.path(name) }

  /// Every shipped capture's name.
  static var allCaptures: [String] { (try? Captures.names()) ?? [] }

  /// The layout options a capture is replayed with (its `.args` file).
  static func options(for name: String) -> LayoutOptions {
    var options = LayoutOptions()
    let words = Captures.arguments(name)
    var i = 0
    while i + 1 < words.count {
      switch words[i] {
      case "--size":
        let wh = words[i + 1].split(separator: "x").compactMap { Int($0) }
        options.panelWidth = wh[0]
        options.panelHeight = wh[1]
      case "--rotate": options.rotation = Rotation(degrees: Int(words[i + 1])!)!
      case "--grid": options.gridSize = Int(words[i + 1])!
      default: break
      }
      i += 2
    }
    return options
  }

  init(capture name: String, theme: Theme = Theme(), font: Bool = true, gridMotion: GridMotion = .off) throws {
    let options = SceneHarness.options(for: name)
    layout = try GridLayout(options)
    let recording = try Recording(contentsOf: SceneHarness.capturePath(name))
    events = try recording.touchEvents(transform: layout.transform)
    let atlas = font ? try FontLoader.loadAtlas(pixelSize: layout.fontPixels) : nil
    renderer = LockScreenRenderer(layout: layout, theme: theme, atlas: atlas, gridMotion: gridMotion)
  }

  /// The development judge the tests use: 1-2-3-6 unlocks.
  static func judge(_ outcome: GestureOutcome) -> LockScreenController.Verdict {
    if outcome.result == .tooShort { return .rejected(PromptText("Too short: join 4 dots")) }
    return outcome.dots == DotSequence([1, 2, 3, 6]) ? .accepted(PromptText("Unlocked")) : .rejected(PromptText("Wrong pattern"))
  }

  /// Every state the device would present, in order.
  func states(inputMode: InputMode = .drag) -> [LockScreenState] {
    var result: [LockScreenState] = []
    TestPlayback.play(events, layout: layout, judge: SceneHarness.judge, inputMode: inputMode) { state, _ in result.append(state) }
    return result
  }

  var width: Int { layout.transform.viewWidth }
  var height: Int { layout.transform.viewHeight }

  /// Renders into a frame buffer with a padded stride, as real dumb buffers have.
  func stride(for format: PixelFormat) -> Int { (width + 16) * format.bytesPerPixel }

  func makeFrame(_ format: PixelFormat) -> [UInt8] {
    [UInt8](repeating: 0xA5, count: stride(for: format) * height)
  }

  /// Draws `damage` of `state` into `frame`.
  func render(_ state: LockScreenState, damage: DamageList, into frame: inout [UInt8], format: PixelFormat) {
    let stride = stride(for: format)
    let (w, h, renderer) = (width, height, renderer)
    frame.withUnsafeMutableBytes { bytes in
      switch format {
      case .xrgb8888:
        let canvas = Canvas<XRGB8888>(pixels: bytes, width: w, height: h, bytesPerRow: stride, rasterizer: renderer.rasterizer)
        renderer.render(state, into: canvas, damage: damage)
      case .rgb565:
        let canvas = Canvas<RGB565>(pixels: bytes, width: w, height: h, bytesPerRow: stride, rasterizer: renderer.rasterizer)
        renderer.render(state, into: canvas, damage: damage)
      }
    }
  }

  /// A full redraw of one state into a fresh frame.
  func fullFrame(_ state: LockScreenState, format: PixelFormat = .xrgb8888) -> [UInt8] {
    var frame = makeFrame(format)
    render(state, damage: renderer.damage(from: nil, to: state), into: &frame, format: format)
    return frame
  }
}
