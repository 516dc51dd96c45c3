import Foundation
import Raster
import Scene
import XCTest

/// WCAG 2.1 contrast of each preset's colours against its background, computed from the
/// colours as they reach the screen: a colour with an opacity (the line, the default
/// rings) blended over the background exactly as the rasteriser blends it, against
/// every row of the background's gradient, the worst row counting.
///
/// The figures printed by `testPrintTheFigures` are the table in docs/themes.md.
final class ThemeContrastTests: XCTestCase {
  /// WCAG 2.1 relative luminance of an sRGB colour (its opacity ignored).
  static func luminance(_ c: Color) -> Double {
    func linear(_ v: UInt8) -> Double {
      let s = Double(v) / 255
      return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b)
  }

  /// (L1 + 0.05) / (L2 + 0.05), the lighter over the darker.
  static func ratio(_ a: Color, _ b: Color) -> Double {
    let (la, lb) = (luminance(a), luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }

  /// `c` drawn at full coverage over the opaque `background`, as the rasteriser blends.
  static func shown(_ c: Color, over background: Color) -> Color {
    let a = UInt32(c.a)
    func mix(_ s: UInt8, _ d: UInt8) -> UInt8 { UInt8(ChannelMath.blend(UInt32(s), over: UInt32(d), alpha: a)) }
    return Color(mix(c.r, background.r), mix(c.g, background.g), mix(c.b, background.b))
  }

  /// Every colour of the background's gradient for the views' heights (320 to 800 rows
  /// in the goldens; the gradient is per row, rounded as `fillVerticalGradient` rounds).
  static func backgrounds(_ theme: Theme) -> [Color] {
    var colours: [Color] = []
    for rows in [320, 480, 800] {
      let steps = rows - 1
      for step in 0...steps {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) * (steps - step) + Int(b) * step + steps / 2) / steps) }
        let (t, b) = (theme.backgroundTop, theme.backgroundBottom)
        colours.append(Color(mix(t.r, b.r), mix(t.g, b.g), mix(t.b, b.b)))
      }
    }
    return colours
  }

  /// What a person must tell from the background, by name, as drawn (with its opacity).
  static func elements(_ theme: Theme) -> [(String, Color)] {
    [
      ("text (prompt)", theme.text),
      ("message", theme.message),
      ("dot", theme.dot),
      ("ring", theme.ring),
      ("line", theme.accent.withAlpha(theme.lineAlpha)),
      ("joined dot", theme.accent),
      ("wrong: prompt, joined dot", theme.wrong),
      ("wrong: line", theme.wrong.withAlpha(theme.lineAlpha)),
      ("success: joined dot", theme.success),
      ("success: line", theme.success.withAlpha(theme.lineAlpha)),
    ]
  }

  /// The worst ratio of `colour` over the gradient, and the ratios at its two ends.
  static func contrast(_ colour: Color, _ theme: Theme) -> (worst: Double, top: Double, bottom: Double) {
    let worst = backgrounds(theme).map { ratio(shown(colour, over: $0), $0) }.min()!
    let top = ratio(shown(colour, over: theme.backgroundTop), theme.backgroundTop)
    let bottom = ratio(shown(colour, over: theme.backgroundBottom), theme.backgroundBottom)
    return (worst, top, bottom)
  }

  func testTheFormulaGivesWCAGsKnownFigures() {
    XCTAssertEqual(Self.ratio(.white, .black), 21, accuracy: 1e-9)
    XCTAssertEqual(Self.ratio(.black, .black), 1, accuracy: 1e-9)
    // #767676 on white is the classic 4.54:1, #595959 7.0:1.
    XCTAssertEqual(Self.ratio(Color(0x76, 0x76, 0x76), .white), 4.54, accuracy: 0.01)
    XCTAssertEqual(Self.ratio(Color(0x59, 0x59, 0x59), .white), 7.0, accuracy: 0.01)
    // Half-opacity white over black is the rasteriser's 128 grey.
    XCTAssertEqual(Self.shown(Color(255, 255, 255, 128), over: .black), Color(128, 128, 128))
  }

  func testHighContrastIsAtLeast7To1ForEverythingAgainstBothEndsAndEveryRow() {
    let theme = Theme(preset: .highContrast)
    for (name, colour) in Self.elements(theme) {
      let c = Self.contrast(colour, theme)
      XCTAssertGreaterThanOrEqual(c.top, 7, "\(name) against the background's top")
      XCTAssertGreaterThanOrEqual(c.bottom, 7, "\(name) against the background's bottom")
      XCTAssertGreaterThanOrEqual(c.worst, 7, "\(name) against the gradient's worst row")
    }
  }

  func testLightTextAndDotsReachAAAndTheLineIsVisible() {
    let theme = Theme(preset: .light)
    for (name, colour) in Self.elements(theme) {
      let c = Self.contrast(colour, theme)
      // WCAG's 4.5:1 for text; 3:1 (non-text contrast, 1.4.11) for the rest.
      let wanted: Double = name.hasPrefix("text") || name == "message" || name.hasPrefix("wrong: prompt") ? 4.5 : 3
      XCTAssertGreaterThanOrEqual(c.worst, wanted, name)
    }
  }

  func testPrintTheFigures() {
    var lines: [String] = []
    for preset in ThemePreset.allCases {
      let theme = Theme(preset: preset)
      lines.append("\(preset.name): background \(hex(theme.backgroundTop)) to \(hex(theme.backgroundBottom)), line opacity \(theme.lineAlpha)/255")
      for (name, colour) in Self.elements(theme) {
        let c = Self.contrast(colour, theme)
        let shownTop = Self.shown(colour, over: theme.backgroundTop)
        lines.append(
          "| \(name) | \(hex(colour)) | \(hex(shownTop)) | \(String(format: "%.2f", c.top)) | \(String(format: "%.2f", c.bottom)) | \(String(format: "%.2f", c.worst)) |")
      }
    }
    print(lines.joined(separator: "\n"))
  }

  private func hex(_ c: Color) -> String {
    let digits = [c.r, c.g, c.b] + (c.a == 255 ? [] : [c.a])
    return "#" + digits.map { String(format: "%02X", $0) }.joined()
  }
}
