import AllocationCounter
import GoldenSupport
import PatternCore
import Raster
import Scene
import Typeface
import XCTest

/// A lock screen laid out as `run` lays it out with a message and a power button:
/// wrapped to the layout without the message, then laid out again with its lines.
struct UnattendedScreen {
  let layout: GridLayout
  let renderer: LockScreenRenderer
  let lines: [String]

  init(_ options: LayoutOptions, message: String, font: Bool = true, theme: Theme = Theme()) throws {
    var options = options
    let plain = try GridLayout(options)
    let atlas = font ? try FontLoader.loadAtlas(pixelSize: plain.fontPixels, extras: FontLoader.defaultExtras + ["ë", "☎"]) : nil
    lines = atlas.map {
      TextWrapping.lines(of: message, atlas: $0, width: plain.messageRect.width, maximumLines: LayoutOptions.maximumMessageLines)
    } ?? []
    options.messageLines = lines.count
    layout = try GridLayout(options)
    renderer = LockScreenRenderer(layout: layout, theme: theme, atlas: atlas, message: lines)
  }

  var width: Int { layout.transform.viewWidth }
  var height: Int { layout.transform.viewHeight }

  func frame(_ state: LockScreenState, damage: DamageList? = nil, into existing: [UInt8]? = nil) -> [UInt8] {
    var frame = existing ?? [UInt8](repeating: 0xA5, count: width * height * 4)
    let (w, h, renderer) = (width, height, renderer)
    frame.withUnsafeMutableBytes { bytes in
      let canvas = Canvas<XRGB8888>(pixels: bytes, width: w, height: h, bytesPerRow: w * 4, rasterizer: renderer.rasterizer)
      renderer.render(state, into: canvas, damage: damage ?? renderer.damage(from: nil, to: state))
    }
    return frame
  }
}

final class MessageSceneTests: XCTestCase {
  static let message = "Property of ACME Ltd, Building 4. Found it? Call +44 20 7946 0000 or write to lost@acme.example"

  private func golden(_ screen: UnattendedScreen, _ state: LockScreenState, name: String) {
    assertMatchesGolden(
      screen.frame(state), width: screen.width, height: screen.height, stride: screen.width * 4, format: .xrgb8888,
      area: "scene", name: name)
  }

  func testMessageUnderThePromptAt800x480() throws {
    let s = try UnattendedScreen(LayoutOptions(), message: MessageSceneTests.message)
    XCTAssertGreaterThan(s.lines.count, 1)
    golden(s, LockScreenState(prompt: .drawPattern), name: "message-800x480")
  }

  func testMessageUnderThePromptAt480x800() throws {
    let s = try UnattendedScreen(LayoutOptions(panelWidth: 480, panelHeight: 800), message: MessageSceneTests.message)
    golden(s, LockScreenState(prompt: .drawPattern), name: "message-480x800")
  }

  func testMessageAt480x320TurnedAQuarterWithThePowerButton() throws {
    let s = try UnattendedScreen(
      LayoutOptions(panelWidth: 480, panelHeight: 320, rotation: .clockwise90, powerButton: true), message: MessageSceneTests.message)
    XCTAssertEqual(s.lines.count, 3, "at most three lines")
    golden(s, LockScreenState(prompt: .drawPattern), name: "message-480x320-rotate-90-power-button")
  }

  func testPowerButtonHalfPressedAt800x480() throws {
    let s = try UnattendedScreen(LayoutOptions(powerButton: true), message: "")
    var state = LockScreenState(prompt: .drawPattern)
    state.powerPress = LockScreenController.powerPressSteps / 2
    golden(s, state, name: "power-button-800x480-half-pressed")
  }

  func testWrappingBreaksAtSpacesThenInsideWordsAndCutsWithAnEllipsis() throws {
    let atlas = try FontLoader.loadAtlas(pixelSize: 20)
    let width = 200
    let long = String(repeating: "W", count: 40)
    let lines = TextWrapping.lines(of: "a \(long) b", atlas: atlas, width: width, maximumLines: 9)
    XCTAssertEqual(lines.first, "a")
    XCTAssertEqual(lines.last, "b")
    XCTAssertEqual(lines.dropFirst().dropLast().joined(), long, "the long word is broken, nothing lost")
    for line in lines { XCTAssertLessThanOrEqual(TextLayout.width(of: line, in: atlas), width, line) }
    let cut = TextWrapping.lines(of: MessageSceneTests.message, atlas: atlas, width: width, maximumLines: 2)
    XCTAssertEqual(cut.count, 2)
    XCTAssertTrue(cut[1].hasSuffix("\u{2026}"))
    XCTAssertLessThanOrEqual(TextLayout.width(of: cut[1], in: atlas), width)
    XCTAssertEqual(TextWrapping.lines(of: " \t\n ", atlas: atlas, width: width, maximumLines: 3), [])
  }

  func testCharactersTheFontLacksAreDrawnAsQuestionMarksWithoutACrash() throws {
    // Emoji and a private-use scalar: DejaVu Sans has neither.
    let s = try UnattendedScreen(LayoutOptions(), message: "Call \u{1F4DE} \u{E000}\u{E001} now")
    XCTAssertEqual(s.lines.count, 1)
    _ = s.frame(LockScreenState(prompt: .drawPattern))
  }

  /// The button and the message stay clear of the grid, every dot's hit circle, the
  /// prompt and each other, and inside the view, at every size class, rotation and grid.
  func testMessageAndPowerButtonNeverTouchTheGridAtAnySize() throws {
    let sizes = [(800, 480), (480, 800), (480, 320), (320, 480), (240, 240), (640, 480), (600, 480), (480, 520), (1920, 1080), (1080, 1920), (3840, 240)]
    for (w, h) in sizes {
      for rotation in Rotation.allCases {
        for grid in [3, 5, 7] {
          for dpi in [nil, 96, 300] as [Int?] {
            for lines in 0...LayoutOptions.maximumMessageLines {
              let options = LayoutOptions(
                panelWidth: w, panelHeight: h, rotation: rotation, gridSize: grid, dotsPerInch: dpi, hitRadiusPerMille: 1000,
                messageLines: lines, powerButton: true)
              let name = "\(w)x\(h) \(rotation) grid \(grid) dpi \(dpi ?? 0) lines \(lines)"
              guard let layout = try? GridLayout(options) else { continue }
              let view = Rect(x: 0, y: 0, width: layout.transform.viewWidth, height: layout.transform.viewHeight)
              let button = layout.powerButtonRect
              XCTAssertFalse(button.isEmpty, name)
              XCTAssertEqual(button.intersection(view), button, name)
              XCTAssertTrue(button.intersection(layout.gridRect).isEmpty, name)
              XCTAssertTrue(button.intersection(layout.promptRect).isEmpty, name)
              XCTAssertTrue(button.intersection(layout.messageRect).isEmpty, name)
              XCTAssertGreaterThan(layout.gridRect.width, 0, name)
              for dot in 1...layout.dotCount {
                let c = layout.centre(of: dot)
                let circle = ShapeBounds.circle(center: c, radius: layout.hitRadius)
                XCTAssertTrue(circle.intersection(button).isEmpty, "\(name) dot \(dot)")
              }
              if lines > 0 {
                XCTAssertEqual(layout.messageRect.intersection(view), layout.messageRect, name)
                XCTAssertTrue(layout.messageRect.intersection(layout.gridRect).isEmpty, name)
                XCTAssertTrue(layout.messageRect.intersection(layout.promptRect).isEmpty, name)
              }
            }
          }
        }
      }
    }
  }

  func testWithoutMessageOrButtonTheLayoutIsUnchanged() throws {
    for (w, h) in [(800, 480), (480, 800), (480, 320)] {
      let a = try GridLayout(LayoutOptions(panelWidth: w, panelHeight: h))
      XCTAssertTrue(a.powerButtonRect.isEmpty)
      XCTAssertEqual(a.messageRect.height, 0)
    }
  }

  func testRenderingAPressAndTheMessageAllocatesNothing() throws {
    let s = try UnattendedScreen(LayoutOptions(powerButton: true), message: MessageSceneTests.message)
    var states: [LockScreenState] = []
    for step in 0...LockScreenController.powerPressSteps {
      var state = LockScreenState(prompt: .drawPattern)
      state.powerPress = step
      states.append(state)
    }
    states.append(LockScreenState(prompt: .poweringOff))
    var frame = s.frame(states[0])
    let (w, h, renderer) = (s.width, s.height, s.renderer)
    let allocations = states.withUnsafeBufferPointer { list in
      frame.withUnsafeMutableBytes { bytes in
        let canvas = Canvas<XRGB8888>(pixels: bytes, width: w, height: h, bytesPerRow: w * 4, rasterizer: renderer.rasterizer)
        renderer.render(list[0], into: canvas, damage: renderer.damage(from: nil, to: list[0]))
        allocation_counter_start()
        var i = 1
        while i < list.count {
          renderer.render(list[i], into: canvas, damage: renderer.damage(from: list[i - 1], to: list[i]))
          i += 1
        }
        return allocation_counter_stop()
      }
    }
    XCTAssertEqual(allocations, 0)
  }

  func testDamagedRedrawOfAPressEqualsAFullRedraw() throws {
    let s = try UnattendedScreen(LayoutOptions(powerButton: true), message: MessageSceneTests.message)
    var previous = LockScreenState(prompt: .drawPattern)
    var frame = s.frame(previous)
    for step in [0, 5, 12, 24] {
      var state = previous
      state.powerPress = step
      frame = s.frame(state, damage: s.renderer.damage(from: previous, to: state), into: frame)
      XCTAssertEqual(frame, s.frame(state), "step \(step)")
      previous = state
    }
  }
}
