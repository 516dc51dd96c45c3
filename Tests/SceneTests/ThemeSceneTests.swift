import GoldenSupport
import PatternCore
import Raster
import Scene
import XCTest

/// Golden frames of every shipped theme: a pattern half drawn and a wrong verdict, in
/// landscape (800x480) and portrait (480x800), and the message with the power button
/// held (the message's and the long press's colours).
///
/// `default` is the seeds' look, byte for byte: where a frame of it already has a
/// golden (the captures' frames above the themes) it is compared with that one.
final class ThemeSceneTests: XCTestCase {
  /// The golden of a preset's frame; default's existing goldens keep their names.
  private func name(_ preset: ThemePreset, _ frame: String) -> String {
    if preset == .default {
      switch frame {
      case "800x480-drawing-3-dots": return "l-shape-800x480-drawing-3-dots"
      case "800x480-wrong": return "z-800x480-wrong"
      case "480x800-drawing-4-dots": return "portrait-480x800-drawing-4-dots"
      default: break
      }
    }
    return "theme-\(preset.name)-\(frame)"
  }

  private func golden(_ h: SceneHarness, _ state: LockScreenState, _ name: String) {
    assertMatchesGolden(
      h.fullFrame(state), width: h.width, height: h.height, stride: h.stride(for: .xrgb8888), format: .xrgb8888,
      area: "scene", name: name)
  }

  /// The last state while the finger is still down with `dots` joined.
  private func drawing(_ states: [LockScreenState], dots: Int) -> LockScreenState? {
    states.last { $0.trail.count == dots && $0.finger != nil }
  }

  func testEveryPresetWhileDrawingAndWrongAt800x480() throws {
    for preset in ThemePreset.allCases {
      let drawingScreen = try SceneHarness(capture: "l-shape-1236", theme: Theme(preset: preset))
      let state = try XCTUnwrap(drawing(drawingScreen.states(), dots: 3))
      golden(drawingScreen, state, name(preset, "800x480-drawing-3-dots"))

      let wrongScreen = try SceneHarness(capture: "z-1235789", theme: Theme(preset: preset))
      let wrong = try XCTUnwrap(wrongScreen.states().first { $0.appearance == .wrong })
      golden(wrongScreen, wrong, name(preset, "800x480-wrong"))
    }
  }

  func testEveryPresetWhileDrawingAndWrongAt480x800() throws {
    for preset in ThemePreset.allCases {
      let h = try SceneHarness(capture: "portrait-480x800-25896", theme: Theme(preset: preset))
      let states = h.states()
      golden(h, try XCTUnwrap(drawing(states, dots: 4)), name(preset, "480x800-drawing-4-dots"))
      let wrong = try XCTUnwrap(states.first { $0.appearance == .wrong })
      XCTAssertEqual(wrong.trail, DotSequence([2, 5, 8, 9, 6]))
      golden(h, wrong, name(preset, "480x800-wrong"))
    }
  }

  func testEveryPresetWithTheMessageAndThePowerButtonHeldAt800x480() throws {
    for preset in ThemePreset.allCases {
      let s = try UnattendedScreen(LayoutOptions(powerButton: true), message: MessageSceneTests.message, theme: Theme(preset: preset))
      var state = LockScreenState(prompt: .drawPattern)
      state.powerPress = LockScreenController.powerPressSteps / 2
      assertMatchesGolden(
        s.frame(state), width: s.width, height: s.height, stride: s.width * 4, format: .xrgb8888,
        area: "scene", name: name(preset, "800x480-message-power-button"))
    }
  }

  /// A colour key changes exactly what it names: the line's colour over high-contrast
  /// changes the line and the joined dots, and nothing else of an idle screen.
  func testAColourOverADifferentPresetChangesOnlyItsPart() throws {
    var theme = Theme(preset: .highContrast)
    theme.accent = Color(255, 176, 0)
    let changed = try SceneHarness(capture: "l-shape-1236", theme: theme)
    let plain = try SceneHarness(capture: "l-shape-1236", theme: Theme(preset: .highContrast))
    let idle = LockScreenState(prompt: .drawPattern)
    XCTAssertEqual(changed.fullFrame(idle), plain.fullFrame(idle))
    let state = try XCTUnwrap(drawing(plain.states(), dots: 3))
    XCTAssertNotEqual(changed.fullFrame(state), plain.fullFrame(state))
  }
}
